export function OrderPage() { return <h1>OrderPage</h1>; }
