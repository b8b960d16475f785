export function SearchPage() { return <h1>SearchPage</h1>; }
