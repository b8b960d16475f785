export function BookPage() { return <h1>BookPage</h1>; }
