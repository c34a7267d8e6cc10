/** The quick reader of a plain sheetData (sheet-scan.ts): it reads what saxes reads, and leaves to saxes what it does not know. */
import { type SheetEvents, saxesScanSheet, scanSheet } from "../../src/xlsx/sheet-part";
import { findSheetData, quickSheetData } from "../../src/xlsx/sheet-scan";
import { XmlPartError } from "../../src/xlsx/xml";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

function sheet(rows: string, prefix = ""): string {
  const declaration = prefix === "" ? `xmlns="${MAIN}"` : `xmlns:${prefix.slice(0, -1)}="${MAIN}"`;
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${prefix}worksheet ${declaration}><${prefix}dimension ref="A1"/><${prefix}sheetData>${rows}</${prefix}sheetData><${prefix}pageMargins left="0.7"/></${prefix}worksheet>`;
}

/** Every event, as plain data, in order. */
function events(read: (xml: string, part: string, events: SheetEvents) => void, xml: string): unknown[] {
  const seen: unknown[] = [];
  const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;
  read(xml, "xl/worksheets/sheet1.xml", {
    sheetDataOpen: (name) => seen.push(["open", name]),
    rowOpen: (row) => seen.push(["row", plain(row)]),
    cell: (cell) => seen.push(["cell", plain(cell)]),
    rowClose: (row, span) => seen.push(["rowClose", row, plain(span)]),
    sheetDataClose: (element) => seen.push(["close", plain(element)]),
  });
  return seen;
}

function quick(xml: string): boolean {
  const tag = findSheetData(xml);
  return tag !== undefined && quickSheetData(xml, tag, undefined) !== undefined;
}

const PLAIN: Record<string, string> = {
  entities: sheet(`<row r="1"><c r="A1" t="str"><f>IF(B1&lt;&gt;"",B1&amp;"&apos;x&quot;","")</f><v>a&amp;b</v></c></row>`),
  "single-quoted attributes and whitespace": sheet(`\n  <row r='2' spans = '1:2' >\n    <c r='B2' s='3'>\n      <f t='shared' ref='B2:B3' si='0'>A2*2</f>\n      <v>4</v>\n    </c>\n    <c r="C2"/>\n  </row>\n  <row r="3"/>\n`),
  "x: prefixes": sheet(`<x:row r="1"><x:c r="A1"><x:f>1+1</x:f><x:v>2</x:v></x:c><x:c><x:v>3</x:v></x:c></x:row>`, "x:"),
  "_x000D_ and _x005F_ in a text result": sheet(`<row r="1"><c r="A1" t="str"><f>CHAR(13)</f><v>a_x000D_b_x005F_x0041_</v></c></row>`),
  "references in lower case, with leading zeros, or no reference at all": sheet(`<row r="1"><c r="b01"><v>1</v></c><c r="XFD0001"><v>2</v></c><c r="abcd1"><v>3</v></c><c r="A"><v>4</v></c><c r="1"><v>5</v></c><c r="C1x"><v>6</v></c><c r="AA123456789012345678"><v>7</v></c></row><row r="0012"><c r="Zz12"><v>8</v></c></row>`),
  "attributes spaced and quoted every way, tabs and line feeds in text": sheet(`<row\tr="1"\n><c r = "A1"\tt\n=\n'str' ><f>"a\tb"</f><v>a\tb\nc]]</v ></c ><c r="B1" s='1' /></row >`),
  "self-closing f and v, cells without r": sheet(`<row><c><f/><v/></c><c t="e"><v>#N/A</v></c></row><row><c><v>]]</v></c></row>`),
};

const NOT_PLAIN: Record<string, string> = {
  comment: sheet(`<row r="1"><!-- a note --><c r="A1"><v>1</v></c></row>`),
  CDATA: sheet(`<row r="1"><c r="A1" t="str"><f>"x"</f><v><![CDATA[a<b]]></v></c></row>`),
  "processing instruction": sheet(`<row r="1"><?app hint?><c r="A1"><v>1</v></c></row>`),
  "character reference": sheet(`<row r="1"><c r="A1" t="str"><f>"A"</f><v>&#65;&#x42;</v></c></row>`),
  "inline string": sheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>a</t><rPh><t>x</t></rPh></is></c></row>`),
  "carriage return": sheet(`<row r="1"><c r="A1" t="str"><f>"a"</f><v>a\r\nb</v></c></row>`),
  "attribute with a line feed": sheet(`<row r="1"><c r="A1" t="str"><f t="array" ref="A1">"a"</f><v>a</v></c><c r="B1" s="1\n"><v>1</v></c></row>`),
  "an attribute value with an entity": sheet(`<row r="1"><c r="A1" t="s&amp;"><v>1</v></c></row>`),
  "an attribute value with a character outside the BMP": sheet(`<row r="1"><c r="A1" t="\u{1F600}"><v>1</v></c></row>`),
  "an attribute named __proto__": sheet(`<row r="1"><c r="A1" __proto__="x" toString="y"><v>1</v></c></row>`),
  "a prefix other than sheetData's": `<worksheet xmlns="${MAIN}" xmlns:x="${MAIN}"><sheetData><x:row r="1"><x:c r="A1"><x:v>1</x:v></x:c></x:row></sheetData></worksheet>`,
};

describe("the quick sheetData reader", () => {
  it.each(Object.entries(PLAIN))("reads %s itself, as saxes does", (_, xml) => {
    expect(quick(xml)).toBe(true);
    const read = events(scanSheet, xml);
    expect(read.length).toBeGreaterThan(3);
    expect(read).toEqual(events(saxesScanSheet, xml));
  });

  it("decodes entities and _xHHHH_ as saxes does", () => {
    const cells = events(scanSheet, PLAIN.entities ?? "").filter((event) => (event as unknown[])[0] === "cell");
    expect(cells).toMatchObject([["cell", { formula: { text: `IF(B1<>"",B1&"'x"","")` }, value: { text: "a&b" } }]]);
    const escaped = events(scanSheet, PLAIN["_x000D_ and _x005F_ in a text result"] ?? "").filter((event) => (event as unknown[])[0] === "cell");
    expect(escaped).toMatchObject([["cell", { value: { text: "a\rb_x0041_" } }]]);
  });

  it.each(Object.entries(NOT_PLAIN))("leaves %s to saxes, which reads it as before", (_, xml) => {
    expect(quick(xml)).toBe(false);
    expect(events(scanSheet, xml)).toEqual(events(saxesScanSheet, xml));
  });

  it("leaves a sheetData in a comment before the real one to saxes", () => {
    const xml = `<worksheet xmlns="${MAIN}"><!-- <sheetData> --><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>`;
    const read = events(scanSheet, xml);
    expect(read).toEqual(events(saxesScanSheet, xml));
    expect(read).toContainEqual(["cell", expect.objectContaining({ address: "A1" })]);
  });

  it.each([
    ["a cell not closed", sheet(`<row r="1"><c r="A1"><v>1</v></row>`)],
    ["an end tag after sheetData that closes nothing", sheet(`<row r="1"><c r="A1"><v>1</v></c></row>`).replace("<pageMargins", "</cols><pageMargins")],
    ["attributes with no space between", sheet(`<row r="1"><c r="A1"s="2"><v>1</v></c></row>`)],
    ["a start tag's / apart from its >", sheet(`<row r="1"><c r="A1"/ ><v>1</v></row>`)],
    ["an attribute with no value", sheet(`<row r="1"><c r="A1" s><v>1</v></c></row>`)],
    ["an end tag with an attribute", sheet(`<row r="1"><c r="A1"><v>1</v></c x="1"></row>`)],
    ["text with ]]>", sheet(`<row r="1"><c r="A1" t="str"><f>"a"</f><v>a]]&gt;b]]>c</v></c></row>`)],
    ["a form feed in text", sheet(`<row r="1"><c r="A1" t="str"><f>"a"</f><v>a\fb</v></c></row>`)],
    ["a duplicate attribute", sheet(`<row r="1"><c r="A1" r="A2"><v>1</v></c></row>`)],
    ["an unknown entity", sheet(`<row r="1"><c r="A1" t="str"><f>"a"</f><v>&nbsp;</v></c></row>`)],
    ["text after the root", `${sheet(`<row r="1"><c r="A1"><v>1</v></c></row>`)}junk`],
  ])("refuses %s with saxes's message, naming the part", (_, xml) => {
    const message = (() => {
      try {
        saxesScanSheet(xml, "xl/worksheets/sheet1.xml", {});
      } catch (error) {
        return (error as Error).message;
      }
      return "read";
    })();
    expect(message).toMatch(/^xl\/worksheets\/sheet1\.xml is not well-formed XML: /);
    expect(() => scanSheet(xml, "xl/worksheets/sheet1.xml", {})).toThrow(XmlPartError);
    expect(() => scanSheet(xml, "xl/worksheets/sheet1.xml", {})).toThrow(message);
  });
});
