import PDFDocument from "pdfkit";
import { clock } from "../clock";

/** A4 in points, and the margin every page keeps. */
const PAGE = { width: 595.28, height: 841.89, margin: 50 };

/** A column of a table: its heading, width (points) and alignment. */
export interface Column {
  heading: string;
  width: number;
  align?: "left" | "right";
}

/**
 * A document a person files (a statement, an invoice), drawn with pdfkit in its built-in
 * Helvetica: headings, label–value rows and tables that carry on across pages with their
 * headings repeated. Text outside the font's Latin character set is shown as "?".
 */
export class PdfDocument {
  private readonly doc: PDFKit.PDFDocument;
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<Buffer>;

  constructor(title: string, author: string) {
    this.doc = new PDFDocument({ size: "A4", margin: PAGE.margin, info: { Title: shown(title), Author: shown(author), Producer: "Aerogate", Creator: "Aerogate", CreationDate: clock.now() } });
    this.doc.on("data", (chunk: Buffer) => this.chunks.push(chunk));
    this.done = new Promise((resolve, reject) => {
      this.doc.on("end", () => resolve(Buffer.concat(this.chunks)));
      this.doc.on("error", reject);
    });
  }

  heading(text: string): this {
    this.room(40);
    this.doc.font("Helvetica-Bold").fontSize(18).text(shown(text), PAGE.margin, this.doc.y).moveDown(0.5);
    return this;
  }

  subheading(text: string): this {
    this.room(30);
    this.doc.moveDown(0.5).font("Helvetica-Bold").fontSize(12).text(shown(text), PAGE.margin, this.doc.y).moveDown(0.3);
    return this;
  }

  /** A line of plain text. */
  line(text: string): this {
    this.room(16);
    this.doc.font("Helvetica").fontSize(10).text(shown(text), PAGE.margin, this.doc.y);
    return this;
  }

  /** Label–value rows, the values right-aligned in a column. */
  facts(rows: ReadonlyArray<[label: string, value: string]>): this {
    for (const [label, value] of rows) {
      this.room(16);
      const y = this.doc.y;
      this.doc.font("Helvetica").fontSize(10).text(shown(label), PAGE.margin, y, { width: 250 });
      this.doc.font("Helvetica-Bold").text(shown(value), PAGE.margin + 250, y, { width: 245, align: "right" });
      this.doc.y = Math.max(this.doc.y, y + 14);
    }
    return this;
  }

  /** A table; rows that do not fit go on to the next page, under the headings again. */
  table(columns: readonly Column[], rows: ReadonlyArray<readonly string[]>): this {
    const header = () => {
      this.drawRow(columns, columns.map((column) => column.heading), true);
      this.doc.moveTo(PAGE.margin, this.doc.y).lineTo(PAGE.width - PAGE.margin, this.doc.y).lineWidth(0.5).stroke();
      this.doc.y += 3;
    };
    this.room(40);
    header();
    for (const row of rows) {
      if (this.doc.y + 14 > PAGE.height - PAGE.margin) {
        this.doc.addPage();
        header();
      }
      this.drawRow(columns, row, false);
    }
    if (rows.length === 0) this.line("No entries.");
    return this;
  }

  /** The document's bytes. */
  finish(): Promise<Buffer> {
    this.doc.end();
    return this.done;
  }

  private drawRow(columns: readonly Column[], cells: readonly string[], bold: boolean): void {
    const y = this.doc.y;
    let x = PAGE.margin;
    this.doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(8);
    let bottom = y;
    columns.forEach((column, index) => {
      this.doc.text(shown(cells[index] ?? ""), x, y, { width: column.width - 4, align: column.align ?? "left", lineBreak: true, height: 24, ellipsis: true });
      bottom = Math.max(bottom, this.doc.y);
      x += column.width;
    });
    this.doc.y = Math.max(bottom, y + 11) + 2;
  }

  /** Starts a new page unless `points` are left on this one. */
  private room(points: number): void {
    if (this.doc.y + points > PAGE.height - PAGE.margin) this.doc.addPage();
  }
}

/** Characters Helvetica's built-in (WinAnsi) encoding shows beyond Latin-1. */
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

/** Text as the built-in font can show it: other characters as "?". */
function shown(text: string): string {
  let out = "";
  for (const character of text) {
    const code = character.codePointAt(0)!;
    out += (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(character) ? character : "?";
  }
  return out;
}
