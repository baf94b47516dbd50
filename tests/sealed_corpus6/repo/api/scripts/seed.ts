// Seeds a demo wind farm for local development.
const farm = process.argv.find((a) => a.startsWith("--farm="))?.split("=")[1] ?? "demo-utsira";
console.warn(`seeding ${farm}: 12 turbines, 3 technicians`);
