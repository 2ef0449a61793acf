/**
 * Payment QR codes whose layout is public, read into named parts:
 *
 * - the EPC QR code of a SEPA credit transfer ("GiroCode", EPC069-12: lines after `BCD`);
 * - the Swiss QR-bill (Swiss Payment Standards, Implementation Guidelines for the QR-bill,
 *   version 2.x: lines after `SPC`).
 *
 * Both are lines of text in a fixed order; an empty line is a field left out. A code that
 * does not keep to the layout (too few lines, no IBAN) is left as plain text.
 */
import type { CodePart } from '../types.js';

export interface ParsedCode {
  /** The public format: 'epc-qr', 'swiss-qr-bill', 'iata-bcbp'. */
  format: string;
  /** What the format is, as a person names it. */
  title: string;
  parts: CodePart[];
}

/** Parts with a value, in the order given; empty values are fields the code leaves out. */
export function presentParts(parts: (readonly [string, string, string | undefined])[]): CodePart[] {
  return parts
    .map(([name, label, value]) => ({ name, label, value: value?.trim() ?? '' }))
    .filter((part) => part.value !== '');
}

const ibanPattern = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;

/** An EPC QR code (`BCD`, versions 001 and 002), or undefined when the text is not one. */
export function parseEpcQr(text: string): ParsedCode | undefined {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== 'BCD' || lines.length < 7) return undefined;
  const [, , , , bic, name, iban, amount, purpose, reference, remittance, information] = lines.map(
    (line) => line.trim(),
  );
  const account = iban?.replace(/\s+/g, '').toUpperCase() ?? '';
  if (!ibanPattern.test(account) || !name) return undefined;
  // "EUR12.3": the currency, then the amount with a decimal point.
  const money = /^([A-Z]{3})(\d+(?:\.\d{1,2})?)$/.exec(amount ?? '');
  return {
    format: 'epc-qr',
    title: 'SEPA credit transfer (EPC QR)',
    parts: presentParts([
      ['beneficiaryName', 'Beneficiary name', name],
      ['iban', 'IBAN', account],
      ['bic', 'BIC', bic],
      ['amount', 'Amount', money ? Number(money[2]).toFixed(2) : undefined],
      ['currency', 'Currency', money?.[1]],
      ['purpose', 'Purpose', purpose],
      ['reference', 'Reference', reference],
      ['remittanceInformation', 'Remittance information', remittance],
      ['information', 'Information', information],
    ]),
  };
}

/** A Swiss QR-bill (`SPC`), or undefined when the text is not one. */
export function parseSwissQrBill(text: string): ParsedCode | undefined {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  if (lines[0] !== 'SPC' || lines.length < 31) return undefined;
  const account = lines[3]!.replace(/\s+/g, '').toUpperCase();
  if (!ibanPattern.test(account)) return undefined;
  const line = (index: number) => lines[index] ?? '';
  /** A party's address: structured (S: street, number, postcode, town) or two free lines (K). */
  const address = (at: number) => {
    const [type, , first, second, postcode, town, country] = lines.slice(at, at + 7);
    const place = type === 'S' ? `${first} ${second}, ${postcode} ${town}` : `${first}, ${second}`;
    const written = place.replace(/\s+/g, ' ').replace(/^[ ,]+|[ ,]+$/g, '');
    return written && country ? `${written}, ${country}` : written;
  };
  return {
    format: 'swiss-qr-bill',
    title: 'Swiss QR-bill',
    parts: presentParts([
      ['creditorName', 'Creditor name', line(5)],
      ['creditorAddress', 'Creditor address', address(4)],
      ['iban', 'IBAN', account],
      ['amount', 'Amount', /^\d+(?:\.\d+)?$/.test(line(18)) ? Number(line(18)).toFixed(2) : ''],
      ['currency', 'Currency', line(19)],
      ['debtorName', 'Debtor name', line(21)],
      ['debtorAddress', 'Debtor address', address(20)],
      ['referenceType', 'Reference type', line(27)],
      ['reference', 'Reference', line(28)],
      ['message', 'Message', line(29)],
      ['billingInformation', 'Billing information', line(31)],
    ]),
  };
}
