export default {
  client: "pg",
  connection: process.env.DATABASE_URL ?? "postgres://gustline:gustline@localhost:5432/gustline",
  migrations: { directory: "./src/db/migrations", extension: "sql" },
};
