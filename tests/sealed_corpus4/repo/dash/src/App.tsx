export function App() {
  return <h1>Brinewick</h1>;
}
