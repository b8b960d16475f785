// What a GraphQL document asks for, as the playground must know it before running anything:
// each operation's kind (query, mutation, subscription), name and root fields, read by GraphQL's
// own lexical rules (comments, strings and block strings hide nothing here that the server would
// read otherwise). A browser script: it defines `PlaygroundOperations` on the page.
(() => {
  const PUNCTUATORS = new Set(["!", "$", "&", "(", ")", ":", "=", "@", "[", "]", "{", "|", "}"]);
  const NAME_START = /[_A-Za-z]/;
  const NAME_PART = /[_0-9A-Za-z]/;
  const NUMBER_PART = /[-+.0-9eE]/;
  const OPERATION_KINDS = new Set(["query", "mutation", "subscription"]);

  /** The document's tokens (names, punctuators, "..." and values), ignored tokens left out; null if it does not lex. */
  function tokens(text) {
    const found = [];
    let at = 0;
    while (at < text.length) {
      const char = text[at];
      if (char === " " || char === "\t" || char === "\n" || char === "\r" || char === "," || char === "\uFEFF") {
        at += 1;
      } else if (char === "#") {
        while (at < text.length && text[at] !== "\n" && text[at] !== "\r") at += 1;
      } else if (text.startsWith('"""', at)) {
        let end = at + 3;
        while (end < text.length && !text.startsWith('"""', end)) end += text.startsWith('\\"""', end) ? 4 : 1;
        if (end >= text.length) return null;
        found.push(text.slice(at, end + 3));
        at = end + 3;
      } else if (char === '"') {
        let end = at + 1;
        while (end < text.length && text[end] !== '"') {
          if (text[end] === "\n" || text[end] === "\r") return null;
          end += text[end] === "\\" ? 2 : 1;
        }
        if (end >= text.length) return null;
        found.push(text.slice(at, end + 1));
        at = end + 1;
      } else if (text.startsWith("...", at)) {
        found.push("...");
        at += 3;
      } else if (PUNCTUATORS.has(char)) {
        found.push(char);
        at += 1;
      } else if (NAME_START.test(char)) {
        let end = at + 1;
        while (end < text.length && NAME_PART.test(text[end])) end += 1;
        found.push(text.slice(at, end));
        at = end;
      } else if (char === "-" || /[0-9]/.test(char)) {
        let end = at + 1;
        while (end < text.length && NUMBER_PART.test(text[end])) end += 1;
        found.push(text.slice(at, end));
        at = end;
      } else {
        return null;
      }
    }
    return found;
  }

  /**
   * The document's operations, in order: `{ kind, name, fields, fingerprint }`. `name` is null for
   * an anonymous one; `fields` are its root fields (a fragment spread as "...Name"); `fingerprint`
   * is its tokens, the same whatever whitespace, commas and comments surround them. Null when the
   * document does not lex or its braces do not close (the server refuses it too).
   */
  function operationsOf(text) {
    const list = tokens(text);
    if (list === null) return null;
    const operations = [];
    let at = 0;
    while (at < list.length) {
      const start = at;
      const keyword = list[at];
      let kind = null;
      let name = null;
      if (keyword === "{") kind = "query";
      else if (OPERATION_KINDS.has(keyword)) {
        kind = keyword;
        at += 1;
        if (at < list.length && NAME_START.test(list[at])) name = list[at];
      }
      // On to the selection set: past the name, variable definitions and directives.
      let parens = 0;
      while (at < list.length && !(list[at] === "{" && parens === 0)) {
        if (list[at] === "(") parens += 1;
        if (list[at] === ")") parens -= 1;
        at += 1;
      }
      if (at >= list.length) return null;
      const fields = [];
      let depth = 0;
      parens = 0;
      do {
        const token = list[at];
        if (token === "(") parens += 1;
        else if (token === ")") parens -= 1;
        else if (parens === 0 && token === "{") depth += 1;
        else if (parens === 0 && token === "}") depth -= 1;
        else if (depth === 1 && parens === 0 && NAME_START.test(token)) {
          const previous = list[at - 1];
          const next = list[at + 1];
          // A spread names its fragment; an inline fragment (`... on Type`) and a directive name no field.
          if (previous === "...") {
            if (token !== "on") fields.push(`...${token}`);
          } else if (previous !== "@" && previous !== "on" && next !== ":") fields.push(token);
        }
        at += 1;
      } while (at < list.length && depth > 0);
      if (depth !== 0) return null;
      if (kind !== null) operations.push({ kind, name, fields, fingerprint: list.slice(start, at).join(" ") });
    }
    return operations;
  }

  /**
   * The operation the server runs for this document and operation name, as GraphQL picks it: the
   * one so named, or the only one when none is named. Null when there is none to run.
   */
  function operationToRun(text, operationName) {
    const operations = operationsOf(text);
    if (operations === null) return null;
    if (operationName) return operations.find((operation) => operation.name === operationName) ?? null;
    return operations.length === 1 ? operations[0] : null;
  }

  globalThis.PlaygroundOperations = { operationsOf, operationToRun };
})();
