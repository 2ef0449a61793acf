/**
 * The invoice an e-invoice PDF carries as XML is read into named values beside its
 * printed page (Factur-X's CII, XRechnung's UBL), travels with the chunk of its first
 * page, and a hostile attachment (an entity bomb, 1 GB of zeros) fails its document with
 * a plain error in a document worker while the pool goes on answering.
 */
import { Z_SYNC_FLUSH, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chunkPages } from '../chunks.js';
import { readDocuments } from '../documents.js';
import { DocumentPool } from '../isolation/pool.js';
import { defaultDocumentLimits } from '../limits.js';
import { buildPdfWithAttachment } from '../testing/build-pdf-forms.js';
import { textContent } from '../testing/invoice-fixtures.js';
import { useSourceFolder } from '../testing/source-files.js';
import type { EmbeddedValue } from '../types.js';

const folder = useSourceFolder('e-invoice-');

const printed = [
  'ACME Werkzeuge GmbH',
  'Rechnung Nr. RE-2021-0017 vom 03.03.2021',
  'Hammer 2 x 617,25 = 1.234,50',
  'Gesamtbetrag 1.469,06 EUR',
];

const facturX = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument>
    <ram:ID>RE-2021-0017</ram:ID>
    <ram:TypeCode>380</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">20210303</udt:DateTimeString></ram:IssueDateTime>
  </rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:SpecifiedTradeProduct><ram:Name>Hammer</ram:Name></ram:SpecifiedTradeProduct>
      <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>617.25</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
      <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="C62">2</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
      <ram:SpecifiedLineTradeSettlement><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>1234.50</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement>
    </ram:IncludedSupplyChainTradeLineItem>
    <ram:ApplicableHeaderTradeAgreement>
      <ram:SellerTradeParty><ram:Name>ACME Werkzeuge GmbH</ram:Name><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>Muster AG</ram:Name></ram:BuyerTradeParty>
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeDelivery/>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format="102">20210402</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        <ram:LineTotalAmount>1234.50</ram:LineTotalAmount>
        <ram:TaxBasisTotalAmount>1234.50</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="EUR">234.56</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>1469.06</ram:GrandTotalAmount>
        <ram:DuePayableAmount>1469.06</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`;

const xrechnungUbl = `<?xml version="1.0" encoding="UTF-8"?>
<ubl:Invoice xmlns:ubl="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>RE-2021-0017</cbc:ID>
  <cbc:IssueDate>2021-03-03</cbc:IssueDate>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>ACME Werkzeuge GmbH</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
  <cac:LegalMonetaryTotal><cbc:TaxInclusiveAmount currencyID="EUR">1469.06</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">1469.06</cbc:PayableAmount></cac:LegalMonetaryTotal>
  <cac:InvoiceLine><cbc:InvoicedQuantity unitCode="C62">2</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">1234.50</cbc:LineExtensionAmount><cac:Item><cbc:Name>Hammer</cbc:Name></cac:Item></cac:InvoiceLine>
</ubl:Invoice>`;

const valueOf = (values: EmbeddedValue[] | undefined, name: string) =>
  values?.find((value) => value.name === name)?.value;

async function read(name: string, bytes: Buffer) {
  const file = await folder.store(name, 'application/pdf', bytes);
  return readDocuments([file], textContent, { cacheDir: folder.cacheDir });
}

describe('embedded e-invoice data', () => {
  it('reads the CII a Factur-X PDF carries into named values beside the printed page', async () => {
    const pages = await read(
      'facturx.pdf',
      buildPdfWithAttachment(printed, 'factur-x.xml', facturX),
    );
    const [page] = pages;
    expect(page!.text).toContain('Rechnung Nr. RE-2021-0017 vom 03.03.2021');
    expect(page!.readers).toEqual(['text-layer', 'e-invoice']);
    const values = page!.embedded;
    expect(valueOf(values, 'document_kind')).toBe('invoice');
    expect(valueOf(values, 'document_number')).toBe('RE-2021-0017');
    expect(valueOf(values, 'issue_date')).toBe('2021-03-03');
    expect(valueOf(values, 'due_date')).toBe('2021-04-02');
    expect(valueOf(values, 'seller_name')).toBe('ACME Werkzeuge GmbH');
    expect(valueOf(values, 'seller_tax_id')).toBe('DE123456789');
    expect(valueOf(values, 'buyer_name')).toBe('Muster AG');
    expect(valueOf(values, 'currency')).toBe('EUR');
    expect(valueOf(values, 'total_tax')).toBe('234.56');
    expect(valueOf(values, 'total_gross')).toBe('1469.06');
    expect(valueOf(values, 'lines/0/description')).toBe('Hammer');
    expect(valueOf(values, 'lines/0/quantity')).toBe('2');
    expect(valueOf(values, 'lines/0/amount')).toBe('1234.50');
    // The values go to the rules with the chunk that holds the first page.
    const [chunk] = chunkPages(pages, 4000);
    expect(chunk!.embedded).toEqual(values);
  });

  it('reads the UBL of an XRechnung PDF', async () => {
    const [page] = await read(
      'xrechnung.pdf',
      buildPdfWithAttachment(printed, 'xrechnung.xml', xrechnungUbl),
    );
    expect(valueOf(page!.embedded, 'document_number')).toBe('RE-2021-0017');
    expect(valueOf(page!.embedded, 'issue_date')).toBe('2021-03-03');
    expect(valueOf(page!.embedded, 'seller_name')).toBe('ACME Werkzeuge GmbH');
    expect(valueOf(page!.embedded, 'total_gross')).toBe('1469.06');
    expect(valueOf(page!.embedded, 'lines/0/description')).toBe('Hammer');
  });

  it('reads the ZUGFeRD 1.0 XML of an older PDF, attached as application/octet-stream', async () => {
    const zugferd1 = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
  <rsm:HeaderExchangedDocument><ram:ID>RE-2014-1</ram:ID><ram:IssueDateTime><udt:DateTimeString format="102">20140418</udt:DateTimeString></ram:IssueDateTime></rsm:HeaderExchangedDocument>
  <rsm:SpecifiedSupplyChainTradeTransaction>
    <ram:ApplicableSupplyChainTradeAgreement><ram:SellerTradeParty><ram:Name>MVM Versicherungsverein a.G.</ram:Name></ram:SellerTradeParty></ram:ApplicableSupplyChainTradeAgreement>
    <ram:ApplicableSupplyChainTradeSettlement>
      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradeSettlementMonetarySummation><ram:GrandTotalAmount currencyID="EUR">235.62</ram:GrandTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation>
    </ram:ApplicableSupplyChainTradeSettlement>
  </rsm:SpecifiedSupplyChainTradeTransaction>
</rsm:CrossIndustryDocument>`;
    const [page] = await read(
      'zugferd1.pdf',
      buildPdfWithAttachment(printed, 'ZUGFeRD-invoice.xml', zugferd1, {
        subtype: 'application#2Foctet-stream',
      }),
    );
    expect(valueOf(page!.embedded, 'document_number')).toBe('RE-2014-1');
    expect(valueOf(page!.embedded, 'issue_date')).toBe('2014-04-18');
    expect(valueOf(page!.embedded, 'seller_name')).toBe('MVM Versicherungsverein a.G.');
    expect(valueOf(page!.embedded, 'currency')).toBe('EUR');
    expect(valueOf(page!.embedded, 'total_gross')).toBe('235.62');
  });

  it('leaves a PDF whose attachment is not an invoice as its printed page', async () => {
    const [page] = await read(
      'notes.pdf',
      buildPdfWithAttachment(printed, 'notes.xml', '<notes><note>hi</note></notes>'),
    );
    expect(page!.embedded).toBeUndefined();
    expect(page!.readers).toEqual(['text-layer']);
  });

  it(
    'fails an entity bomb and 1 GB of zeros with a plain error, and the pool goes on answering',
    { timeout: 120_000 },
    async () => {
      const pool = new DocumentPool({ size: 1, limits: defaultDocumentLimits });
      const prepare = async (name: string, bytes: Buffer) =>
        pool.prepare({
          files: [await folder.store(name, 'application/pdf', bytes)],
          options: textContent,
          cacheDir: folder.cacheDir,
          chunkSize: 4000,
        });
      try {
        const laughs = [
          '<?xml version="1.0"?>',
          '<!DOCTYPE lolz [<!ENTITY lol "lol">',
          ...Array.from(
            { length: 9 },
            (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level || ''};`.repeat(10)}">`,
          ),
          ']>',
          '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"><rsm:ExchangedDocument><ram:ID>&lol9;</ram:ID></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>',
        ].join('\n');
        await expect(
          prepare('laughs.pdf', buildPdfWithAttachment(printed, 'factur-x.xml', laughs)),
        ).rejects.toMatchObject({
          message:
            'laughs.pdf carries invoice data (factur-x.xml) that declares a document type, which e-invoice XML never does; it was not read',
          code: 'damaged_file',
        });

        const zeros = zerosDeflated(1024);
        expect(zeros.length).toBeLessThan(2_000_000);
        await expect(
          prepare(
            'zeros.pdf',
            buildPdfWithAttachment(printed, 'factur-x.xml', zeros, { packed: true }),
          ),
        ).rejects.toMatchObject({
          message:
            'zeros.pdf carries an attached file that unpacks to more than 64 MB; the limit for an attached file is 64 MB',
          code: 'too_large',
        });

        const after = await prepare(
          'after.pdf',
          buildPdfWithAttachment(printed, 'factur-x.xml', facturX),
        );
        expect(after[0]!.embedded?.length).toBeGreaterThan(5);
      } finally {
        await pool.close();
      }
    },
  );
});

/**
 * `megabytes` MB of zeros as a zlib stream, made without holding them: one megabyte
 * deflated up to a byte boundary, its blocks repeated, then an empty last block.
 */
function zerosDeflated(megabytes: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: Z_SYNC_FLUSH });
  const header = Buffer.from([0x78, 0x9c]);
  const last = Buffer.from([0x03, 0x00, 0, 0, 0, 0]);
  return Buffer.concat([header, ...Array.from({ length: megabytes }, () => block), last]);
}
