/**
 * The invoice data an e-invoice PDF carries about itself: Factur-X, ZUGFeRD, XRechnung and
 * Order-X attach their whole invoice (or order) as XML to the printed PDF, in the UN/CEFACT
 * Cross Industry Invoice syntax (CII) or, for XRechnung, also OASIS UBL. Read into named
 * values (`EmbeddedValue`: the document's number, dates, parties, totals, currency, lines),
 * which are exact where the printed page may be ambiguous; a rule that takes one finds it
 * on the printed page for its place (`types.ts`).
 *
 * Hostile attachments are bounded before anything holds them: the attached streams are
 * found in the PDF's bytes (an embedded file's stream is never inside an object stream) and
 * inflated with a ceiling, the office-file limit (`uncompressedMb`), before pdf.js is asked
 * for them (it would inflate a 1 GB bomb whole); an attachment that cannot be checked
 * (another filter, an encrypted file) is not read. XML with a document type declaration
 * (the carrier of entity bombs) is refused: CII and UBL never declare one.
 */
import { inflateSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { DocumentLimitError, type DocumentLimits } from '../limits.js';
import { ExtractionError, type EmbeddedValue } from '../types.js';

/** The names the e-invoice standards give their attachment; any other `.xml` is tried after them. */
const knownNames = [
  'factur-x.xml',
  'zugferd-invoice.xml',
  'zugferd_2p0.xml',
  'xrechnung.xml',
  'order-x.xml',
];

interface PdfWithAttachments {
  getAttachments(): Promise<Record<string, { filename?: string; content?: Uint8Array }> | null>;
}

/**
 * The named values of the e-invoice `pdf` carries, or `undefined` when it carries none
 * (most PDFs: their bytes name no embedded file, and pdf.js is not asked).
 */
export async function readEmbeddedInvoice(
  bytes: Uint8Array,
  pdf: PdfWithAttachments,
  fileName: string,
  limits: DocumentLimits,
): Promise<EmbeddedValue[] | undefined> {
  const ceiling = limits.uncompressedMb * 1024 * 1024;
  const checked = checkAttachedStreams(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
    ceiling,
  );
  if (checked === 'none') return undefined;
  if (checked === 'too-large')
    throw new DocumentLimitError(
      `${fileName} carries an attached file that unpacks to more than ${limits.uncompressedMb.toLocaleString('en-US')} MB; the limit for an attached file is ${limits.uncompressedMb.toLocaleString('en-US')} MB`,
    );
  if (checked === 'unchecked') return undefined;
  const attachments = Object.values((await pdf.getAttachments()) ?? {});
  const xml = attachments
    .filter((attachment) => attachment.content && /\.xml$/i.test(attachment.filename ?? ''))
    .sort((a, b) => rank(a.filename) - rank(b.filename));
  for (const attachment of xml) {
    const values = invoiceValues(
      Buffer.from(attachment.content!).toString('utf8'),
      fileName,
      attachment.filename!,
    );
    if (values) return values;
  }
  return undefined;
}

function rank(name = ''): number {
  const index = knownNames.indexOf(name.toLowerCase());
  return index < 0 ? knownNames.length : index;
}

/**
 * Finds the embedded files' streams in a PDF's bytes (`/Type /EmbeddedFile`) and what each
 * unpacks to: `none` when there is none, `too-large` when one passes the ceiling,
 * `unchecked` when one cannot be measured here, `ok` when all are measured and within.
 */
export function checkAttachedStreams(
  pdf: Buffer,
  ceiling: number,
): 'none' | 'ok' | 'too-large' | 'unchecked' {
  let found = 'none' as 'none' | 'ok' | 'unchecked';
  const pattern = /\/Type\s*\/EmbeddedFile(?![A-Za-z])/g;
  let at = pdf.indexOf('/EmbeddedFile');
  while (at >= 0) {
    const window = pdf.subarray(Math.max(0, at - 16), at + 64).toString('latin1');
    pattern.lastIndex = 0;
    const isStream =
      pattern.test(window) &&
      !/^\/EmbeddedFiles/.test(pdf.subarray(at, at + 14).toString('latin1'));
    if (isStream) {
      // The keyword after the dictionary's end, not a "stream" inside it (a subtype
      // application#2Foctet-stream).
      const after = pdf.subarray(at, at + 4096).toString('latin1');
      const keyword = /(>>\s*)stream(\r\n|\n|\r)/.exec(after);
      if (!keyword) return 'unchecked';
      const streamAt = at + keyword.index;
      const objectStart = pdf.lastIndexOf('obj', at);
      const dictionary = pdf.subarray(Math.max(0, objectStart), streamAt).toString('latin1');
      const dataStart = streamAt + keyword[0].length;
      const dataEnd = pdf.indexOf('endstream', dataStart);
      if (dataEnd < 0) return 'unchecked';
      const data = pdf.subarray(dataStart, dataEnd);
      const filters = dictionary.match(/\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/)?.[1] ?? '';
      const names = filters.match(/\/[A-Za-z0-9]+/g) ?? [];
      if (names.length === 0) {
        if (data.length > ceiling) return 'too-large';
      } else if (names.length === 1 && names[0] === '/FlateDecode') {
        try {
          inflateSync(data, { maxOutputLength: ceiling + 1 });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return 'too-large';
          return 'unchecked'; // encrypted, or damaged: not ours to read
        }
      } else return 'unchecked';
      if (found === 'none') found = 'ok';
    }
    at = pdf.indexOf('/EmbeddedFile', at + 13);
  }
  return found;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
});

type XmlNode = Record<string, unknown>;

/** The named values of CII or UBL `xml`, or `undefined` when it is neither. */
export function invoiceValues(
  xml: string,
  fileName: string,
  attachment: string,
): EmbeddedValue[] | undefined {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml))
    throw new ExtractionError(
      `${fileName} carries invoice data (${attachment}) that declares a document type, which e-invoice XML never does; it was not read`,
      'damaged_file',
    );
  let tree: XmlNode;
  try {
    tree = parser.parse(xml) as XmlNode;
  } catch {
    return undefined;
  }
  const [rootName, root] = Object.entries(tree).find(([, value]) => isNode(value)) ?? [];
  if (!rootName || !isNode(root)) return undefined;
  const values: EmbeddedValue[] = [];
  const add = (name: string, value: string | undefined) => {
    if (value !== undefined && value !== '') values.push({ name, value });
  };
  if (
    rootName === 'CrossIndustryInvoice' ||
    rootName === 'CrossIndustryDocument' ||
    rootName === 'SCRDMCCBDACIOMessageStructure'
  )
    readCii(root, rootName === 'SCRDMCCBDACIOMessageStructure' ? 'order' : 'invoice', add);
  else if (['Invoice', 'CreditNote', 'Order'].includes(rootName)) readUbl(root, rootName, add);
  else return undefined;
  return values.length > 0 ? values : undefined;
}

type Add = (name: string, value: string | undefined) => void;

/**
 * ZUGFeRD 1.0 (`CrossIndustryDocument`, CII D13B) names the same parts differently from
 * CII D16B (Factur-X, ZUGFeRD 2, XRechnung, Order-X); a part is looked up by its D16B
 * name, then by its 1.0 name.
 */
const zugferd1Names: Record<string, string> = {
  ExchangedDocument: 'HeaderExchangedDocument',
  SupplyChainTradeTransaction: 'SpecifiedSupplyChainTradeTransaction',
  ApplicableHeaderTradeAgreement: 'ApplicableSupplyChainTradeAgreement',
  ApplicableHeaderTradeDelivery: 'ApplicableSupplyChainTradeDelivery',
  ApplicableHeaderTradeSettlement: 'ApplicableSupplyChainTradeSettlement',
  SpecifiedTradeSettlementHeaderMonetarySummation: 'SpecifiedTradeSettlementMonetarySummation',
  SpecifiedLineTradeDelivery: 'SpecifiedSupplyChainTradeDelivery',
  SpecifiedLineTradeAgreement: 'SpecifiedSupplyChainTradeAgreement',
  SpecifiedLineTradeSettlement: 'SpecifiedSupplyChainTradeSettlement',
  SpecifiedTradeSettlementLineMonetarySummation: 'SpecifiedTradeSettlementMonetarySummation',
};

function cii(parent: XmlNode | undefined, name: string): XmlNode | undefined {
  const zugferd1 = zugferd1Names[name];
  return node(parent, name) ?? (zugferd1 ? node(parent, zugferd1) : undefined);
}

function readCii(root: XmlNode, kind: 'invoice' | 'order', add: Add): void {
  add('document_kind', kind);
  const header = cii(root, 'ExchangedDocument');
  add('document_number', text(header, 'ID'));
  add('document_type_code', text(header, 'TypeCode'));
  add('issue_date', ciiDate(cii(header, 'IssueDateTime')));
  const transaction = cii(root, 'SupplyChainTradeTransaction');
  const agreement = cii(transaction, 'ApplicableHeaderTradeAgreement');
  add('buyer_reference', text(agreement, 'BuyerReference'));
  add('order_reference', text(cii(agreement, 'BuyerOrderReferencedDocument'), 'IssuerAssignedID'));
  add('contract_reference', text(cii(agreement, 'ContractReferencedDocument'), 'IssuerAssignedID'));
  for (const [role, element] of [
    ['seller', 'SellerTradeParty'],
    ['buyer', 'BuyerTradeParty'],
  ] as const) {
    const party = cii(agreement, element);
    add(`${role}_name`, text(party, 'Name'));
    add(`${role}_id`, text(party, 'ID'));
    for (const registration of nodes(party, 'SpecifiedTaxRegistration'))
      add(`${role}_tax_id`, text(registration, 'ID'));
    const address = cii(party, 'PostalTradeAddress');
    add(`${role}_street`, text(address, 'LineOne'));
    add(`${role}_postcode`, text(address, 'PostcodeCode'));
    add(`${role}_city`, text(address, 'CityName'));
    add(`${role}_country`, text(address, 'CountryID'));
    add(`${role}_email`, text(cii(party, 'URIUniversalCommunication'), 'URIID'));
  }
  const delivery = cii(transaction, 'ApplicableHeaderTradeDelivery');
  add(
    'delivery_date',
    ciiDate(cii(cii(delivery, 'ActualDeliverySupplyChainEvent'), 'OccurrenceDateTime')),
  );
  add(
    'requested_delivery_date',
    ciiDate(cii(cii(delivery, 'RequestedDeliverySupplyChainEvent'), 'OccurrenceDateTime')),
  );
  const settlement = cii(transaction, 'ApplicableHeaderTradeSettlement');
  add('currency', text(settlement, 'InvoiceCurrencyCode') ?? text(settlement, 'OrderCurrencyCode'));
  add('payment_reference', text(settlement, 'PaymentReference'));
  for (const means of nodes(settlement, 'SpecifiedTradeSettlementPaymentMeans'))
    add('iban', text(cii(means, 'PayeePartyCreditorFinancialAccount'), 'IBANID'));
  const terms = cii(settlement, 'SpecifiedTradePaymentTerms');
  add('payment_terms', text(terms, 'Description'));
  add('due_date', ciiDate(cii(terms, 'DueDateDateTime')));
  const sums = cii(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  add('total_lines', text(sums, 'LineTotalAmount'));
  add('total_net', text(sums, 'TaxBasisTotalAmount'));
  add('total_tax', text(sums, 'TaxTotalAmount'));
  add('total_gross', text(sums, 'GrandTotalAmount'));
  add('amount_due', text(sums, 'DuePayableAmount'));
  nodes(transaction, 'IncludedSupplyChainTradeLineItem').forEach((line, index) => {
    const product = cii(line, 'SpecifiedTradeProduct');
    add(`lines/${index}/description`, text(product, 'Name'));
    add(`lines/${index}/product_id`, text(product, 'SellerAssignedID'));
    const lineDelivery = cii(line, 'SpecifiedLineTradeDelivery');
    add(
      `lines/${index}/quantity`,
      text(lineDelivery, 'BilledQuantity') ?? text(lineDelivery, 'RequestedQuantity'),
    );
    const price = cii(cii(line, 'SpecifiedLineTradeAgreement'), 'NetPriceProductTradePrice');
    add(`lines/${index}/unit_price`, text(price, 'ChargeAmount'));
    const lineSums = cii(
      cii(line, 'SpecifiedLineTradeSettlement'),
      'SpecifiedTradeSettlementLineMonetarySummation',
    );
    add(`lines/${index}/amount`, text(lineSums, 'LineTotalAmount'));
  });
}

function readUbl(root: XmlNode, rootName: string, add: Add): void {
  add(
    'document_kind',
    rootName === 'Order' ? 'order' : rootName === 'CreditNote' ? 'credit_note' : 'invoice',
  );
  add('document_number', text(root, 'ID'));
  add('document_type_code', text(root, 'InvoiceTypeCode') ?? text(root, 'CreditNoteTypeCode'));
  add('issue_date', text(root, 'IssueDate'));
  add('due_date', text(root, 'DueDate') ?? text(node(root, 'PaymentMeans'), 'PaymentDueDate'));
  add('currency', text(root, 'DocumentCurrencyCode'));
  add('buyer_reference', text(root, 'BuyerReference'));
  add('order_reference', text(node(root, 'OrderReference'), 'ID'));
  for (const [role, element] of [
    ['seller', 'AccountingSupplierParty'],
    ['seller', 'SellerSupplierParty'],
    ['buyer', 'AccountingCustomerParty'],
    ['buyer', 'BuyerCustomerParty'],
  ] as const) {
    const party = node(node(root, element), 'Party');
    if (!party) continue;
    add(
      `${role}_name`,
      text(node(party, 'PartyLegalEntity'), 'RegistrationName') ??
        text(node(party, 'PartyName'), 'Name'),
    );
    add(`${role}_tax_id`, text(node(party, 'PartyTaxScheme'), 'CompanyID'));
    const address = node(party, 'PostalAddress');
    add(`${role}_street`, text(address, 'StreetName'));
    add(`${role}_postcode`, text(address, 'PostalZone'));
    add(`${role}_city`, text(address, 'CityName'));
    add(`${role}_country`, text(node(address, 'Country'), 'IdentificationCode'));
    add(`${role}_email`, text(node(party, 'Contact'), 'ElectronicMail'));
  }
  add('delivery_date', text(node(root, 'Delivery'), 'ActualDeliveryDate'));
  add('iban', text(node(node(root, 'PaymentMeans'), 'PayeeFinancialAccount'), 'ID'));
  add('total_tax', text(node(root, 'TaxTotal'), 'TaxAmount'));
  const sums = node(root, 'LegalMonetaryTotal') ?? node(root, 'AnticipatedMonetaryTotal');
  add('total_lines', text(sums, 'LineExtensionAmount'));
  add('total_net', text(sums, 'TaxExclusiveAmount'));
  add('total_gross', text(sums, 'TaxInclusiveAmount'));
  add('amount_due', text(sums, 'PayableAmount'));
  const lines = [
    ...nodes(root, 'InvoiceLine'),
    ...nodes(root, 'CreditNoteLine'),
    ...nodes(root, 'OrderLine').map((line) => node(line, 'LineItem')),
  ];
  lines.forEach((line, index) => {
    add(`lines/${index}/description`, text(node(line, 'Item'), 'Name'));
    add(
      `lines/${index}/quantity`,
      text(line, 'InvoicedQuantity') ?? text(line, 'CreditedQuantity') ?? text(line, 'Quantity'),
    );
    add(`lines/${index}/unit_price`, text(node(line, 'Price'), 'PriceAmount'));
    add(`lines/${index}/amount`, text(line, 'LineExtensionAmount'));
  });
}

function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every child element `name` of `parent` (the parser gives one as itself, several as a list). */
function nodes(parent: XmlNode | undefined, name: string): XmlNode[] {
  const value = parent?.[name];
  return (Array.isArray(value) ? value : [value]).filter(isNode);
}

function node(parent: XmlNode | undefined, name: string): XmlNode | undefined {
  return nodes(parent, name)[0];
}

function text(parent: XmlNode | undefined, name: string): string | undefined {
  const value = parent?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' || typeof first === 'number' ? String(first).trim() : undefined;
}

/** A CII date (`DateTimeString`, format 102 YYYYMMDD, 203 with the time after) as an ISO date. */
function ciiDate(parent: XmlNode | undefined): string | undefined {
  const raw = text(parent, 'DateTimeString');
  const parts = raw && /^(\d{4})(\d{2})(\d{2})(?:\d{4}(?:\d{2})?)?$/.exec(raw);
  return parts ? `${parts[1]}-${parts[2]}-${parts[3]}` : raw;
}
