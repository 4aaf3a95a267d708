// Parses a Mermaid diagram read from stdin with mermaid's own parser
// (mermaid.parse), as the structure family's diagram test needs: prints
// the diagram type and exits 0, or prints the parse error and exits 1.
// mermaid sanitises labels with DOMPurify, which needs a DOM: linkedom
// provides one.
import { parseHTML } from 'linkedom';

const { window } = parseHTML('<!doctype html><html><body></body></html>');
globalThis.window = window;
globalThis.document = window.document;
const { default: mermaid } = await import('mermaid');

let text = '';
for await (const chunk of process.stdin) text += chunk;
try {
  const res = await mermaid.parse(text);
  console.log(res.diagramType);
} catch (e) {
  console.log(String(e.message || e));
  process.exit(1);
}
