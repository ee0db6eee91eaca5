// Writes the first lab's opening run (the markup `idempotency-lab opening`
// prints, read from stdin) into the built page in place of its marker,
// `<div data-opening></div>`, and the other labs whose opening run the
// build wrote beside their bundles (`idempotency-lab opening --dir`, which
// prints their ids) into the page's `data-openings`, for first-paint.js.
// Usage:
//   idempotency-lab opening --dir dist > target/openings.txt
//   idempotency-lab opening | node scripts/opening.mjs dist/index.html $(cat target/openings.txt)
import { readFileSync, writeFileSync } from "node:fs";

const file = process.argv[2] ?? "dist/index.html";
const markup = readFileSync(0, "utf8").trim();
if (!markup.startsWith('<div class="lab-root prerendered ')) throw new Error("opening: stdin is not the opening run's markup");
const html = readFileSync(file, "utf8");
const marker = /<div data-opening(="")?\s*><\/div>/;
if (!marker.test(html)) throw new Error(`opening: ${file} has no <div data-opening></div> to replace`);
const others = process.argv.slice(3).join(" ");
if (!/^[a-z0-9 -]*$/.test(others)) throw new Error(`opening: not lab ids: ${others}`);
const page = html.replace(marker, () => markup).replace(/<html /, `<html data-openings="${others}" `);
writeFileSync(file, page);
console.log(`opening: ${markup.length} characters of markup in ${file}; other labs' openings: ${others || "none"}`);
