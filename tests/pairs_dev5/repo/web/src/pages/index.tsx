import Link from "next/link";

export default function Home() {
  return (
    <main>
      <h1>Bindery</h1>
      <p>Turn your manuscript into a book.</p>
      <Link href="/upload">Upload a manuscript</Link>
    </main>
  );
}
