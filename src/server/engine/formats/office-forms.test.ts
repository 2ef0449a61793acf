/**
 * Office files that programs and forms write: a workbook whose formulas carry no stored
 * results reads with the simple ones worked out and the rest empty (never "damaged"), and
 * a Word form's content controls, legacy form fields, tick boxes and text boxes are read.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readDocuments } from '../documents.js';
import { buildZip } from '../testing/build-documents.js';
import { textContent } from '../testing/invoice-fixtures.js';
import { useSourceFolder } from '../testing/source-files.js';

const folder = useSourceFolder('office-forms-');
const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const formula = (text: string) => ({ formula: text }) as ExcelJS.CellFormulaValue;

async function readText(name: string, mediaType: string, bytes: Uint8Array): Promise<string[]> {
  const file = await folder.store(name, mediaType, bytes);
  const pages = await readDocuments([file], textContent, { cacheDir: folder.cacheDir });
  return pages.map((page) => page.text);
}

describe('XLSX formulas without stored results', () => {
  it('works out arithmetic, SUM, AVERAGE, MIN, MAX, ROUND and IF; leaves the rest empty', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Invoice');
    workbook.addWorksheet('Rates').getCell('A1').value = 0.19;
    sheet.addRow(['Item', 'Qty', 'Price', 'Amount']);
    sheet.addRow(['Hammer', 2, 617.25, formula('B2*C2')]);
    sheet.addRow(['Nails', 100, 0.1, formula('B3*C3')]);
    sheet.addRow(['Subtotal', null, null, formula('SUM(D2:D3)')]);
    sheet.addRow(['VAT', null, null, formula('ROUND(D4*19%,2)')]);
    sheet.addRow(['Total', null, null, formula('D4+D5')]);
    sheet.addRow(['Average', null, null, formula('AVERAGE(D2:D3)')]);
    sheet.addRow(['Range', null, null, formula('MAX(D2:D3)-MIN(D2:D3)')]);
    sheet.addRow(['Status', null, null, formula('IF(D6>1000,"large "&"order","small")')]);
    // Another sheet, a lookup and a cycle are not worked out here: the cells read empty.
    sheet.addRow(['Other sheet', null, null, formula('Rates!A1*D4')]);
    sheet.addRow(['Lookup', null, null, formula('VLOOKUP("Nails",A2:D3,4,FALSE)')]);
    sheet.addRow(['Cycle', null, null, formula('D13+1')]);
    sheet.addRow(['Cycle', null, null, formula('D12+1')]);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());

    const [invoice] = await readText('formulas.xlsx', xlsxType, bytes);
    const rows = invoice!.split('\n');
    expect(rows[1]).toBe('Hammer\t2\t617.25\t1234.5');
    expect(rows[2]).toBe('Nails\t100\t0.1\t10');
    expect(rows[3]).toBe('Subtotal\t\t\t1244.5');
    expect(rows[4]).toBe('VAT\t\t\t236.46');
    expect(rows[5]).toBe('Total\t\t\t1480.96');
    expect(rows[6]).toBe('Average\t\t\t622.25');
    expect(rows[7]).toBe('Range\t\t\t1224.5');
    expect(rows[8]).toBe('Status\t\t\tlarge order');
    expect(rows.slice(9).map((row) => row.trimEnd())).toEqual([
      'Other sheet',
      'Lookup',
      'Cycle',
      'Cycle',
    ]);
  });

  it('works out shared formulas (one formula filled down a column)', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Lines');
    sheet.addRow([1, 10, formula('A1*B1')]);
    sheet.addRow([2, 20, { sharedFormula: 'C1' } as ExcelJS.CellSharedFormulaValue]);
    sheet.addRow([3, 30, { sharedFormula: 'C1' } as ExcelJS.CellSharedFormulaValue]);
    sheet.addRow([null, null, formula('SUM(C1:C3)')]);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const [lines] = await readText('shared.xlsx', xlsxType, bytes);
    expect(lines).toBe('1\t10\t10\n2\t20\t40\n3\t30\t90\n\t\t140');
  });

  it('reads a chain of 20,000 formulas each waiting on the next within its bounds', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Chain');
    for (let row = 1; row < 20_000; row++)
      sheet.getCell(`A${row}`).value = formula(`A${row + 1}+1`);
    sheet.getCell('A20000').value = 1;
    sheet.getCell('B1').value = 'first';
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const [chain] = await readText('chain.xlsx', xlsxType, bytes);
    // Worked out as far as the depth allows from the end, the rest left empty; never a failure.
    expect(chain).toMatch(/^first\n/);
    expect(chain).toMatch(/\n3\n2\n1$/);
  });
});

const wordNamespaces =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="w14 wps"';

const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const sdt = (properties: string, content: string) =>
  `<w:sdt><w:sdtPr>${properties}</w:sdtPr><w:sdtContent>${content}</w:sdtContent></w:sdt>`;
const legacyField = (data: string, instruction: string, result = '') =>
  `<w:r><w:fldChar w:fldCharType="begin"><w:ffData>${data}</w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> ${instruction} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${result}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;
const checkbox = (checked: boolean) =>
  sdt(
    `<w14:checkbox><w14:checked w14:val="${checked ? 1 : 0}"/></w14:checkbox>`,
    run(checked ? '☒' : '☐'),
  );

/** A Word form as Word 2010 and later writes one, with each kind of control in it. */
function buildDocxForm(): Buffer {
  const body = [
    `<w:p>${run('Employee name: ')}${sdt('<w:alias w:val="Name"/><w:tag w:val="name"/>', run('Jane Doe'))}</w:p>`,
    sdt(
      '<w:date w:fullDate="2021-03-03T00:00:00Z"><w:dateFormat w:val="dd.MM.yyyy"/></w:date>',
      `<w:p>${run('Start date: 03.03.2021')}</w:p>`,
    ),
    `<w:p>${run('Remote work ')}${checkbox(true)}${run(' Company car ')}${checkbox(false)}</w:p>`,
    `<w:p>${run('Department: ')}${legacyField('<w:name w:val="Dept"/><w:textInput/>', 'FORMTEXT', run('Sales'))}</w:p>`,
    `<w:p>${run('Full time ')}${legacyField('<w:name w:val="Check1"/><w:checkBox><w:sizeAuto/><w:default w:val="0"/><w:checked/></w:checkBox>', 'FORMCHECKBOX')}</w:p>`,
    // A text box: the DrawingML shape, and the VML fallback Word writes for older readers.
    `<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><wp:extent cx="1828800" cy="457200"/><wp:docPr id="1" name="Text Box 1"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:txbx><w:txbxContent><w:p>${run('Reference: HR-2021-044')}</w:p></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent><w:p>${run('Reference: HR-2021-044')}</w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`,
  ].join('');
  return buildZip({
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${wordNamespaces}><w:body>${body}</w:body></w:document>`,
  });
}

describe('DOCX form controls and text boxes', () => {
  it('reads content controls, legacy fields, tick boxes as marks and text boxes', async () => {
    const [text] = await readText('form.docx', docxType, buildDocxForm());
    expect(text!.split('\n')).toEqual([
      'Employee name: Jane Doe',
      'Start date: 03.03.2021',
      'Remote work ☒ Company car ☐',
      'Department: Sales',
      'Full time ☒',
      'Reference: HR-2021-044',
    ]);
  });
});
