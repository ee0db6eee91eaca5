// Writes the first lab's opening run (the markup `idempotency-lab opening`
// prints, read from stdin) into the built page in place of its marker,
// `<div data-opening></div>`. Usage:
//   idempotency-lab opening | node scripts/opening.mjs dist/index.html
import { readFileSync, writeFileSync } from "node:fs";

const file = process.argv[2] ?? "dist/index.html";
const markup = readFileSync(0, "utf8").trim();
if (!markup.startsWith('<div class="lab-root prerendered ')) throw new Error("opening: stdin is not the opening run's markup");
const html = readFileSync(file, "utf8");
const marker = /<div data-opening(="")?\s*><\/div>/;
if (!marker.test(html)) throw new Error(`opening: ${file} has no <div data-opening></div> to replace`);
writeFileSync(file, html.replace(marker, () => markup));
console.log(`opening: ${markup.length} characters of markup in ${file}`);
