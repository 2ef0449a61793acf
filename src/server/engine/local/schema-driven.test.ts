/**
 * The local strategy on documents that are not invoices, each schema read as its owner
 * wrote it (issue 25): a field's own evidence, forms read as a person reads them, the
 * schema vetoing what does not fit, values without a label, tables of other kinds.
 */
import { describe, expect, it } from 'vitest';
import type { TargetSchema } from '../../../contract/json-schema.js';
import { chunkPages } from '../chunks.js';
import type { ChunkExtraction } from '../types.js';
import { createLocalStrategy } from './local-strategy.js';

async function extract(schema: TargetSchema, text: string): Promise<ChunkExtraction> {
  const [chunk] = chunkPages([{ fileId: 'f1', fileName: 'doc.txt', page: 1, text }], 100_000);
  return createLocalStrategy().extractChunk(chunk!, {
    schema,
    outputInstructions: '',
    model: 'local',
    merged: {},
    signal: new AbortController().signal,
  });
}

const text = (title: string, extra: TargetSchema = {}): TargetSchema => ({
  type: ['string', 'null'],
  title,
  ...extra,
});
const date = (title: string): TargetSchema => text(title, { format: 'date' });
const number = (title: string): TargetSchema => ({ type: ['number', 'null'], title });
const object = (properties: Record<string, TargetSchema>): TargetSchema => ({
  type: 'object',
  properties,
});

describe('each field its own evidence', () => {
  it('gives a birth date and an expiry date on one card their own dates', async () => {
    const card = [
      'REPUBLIC OF EXAMPLE                IDENTITY CARD',
      'Surname            DOE',
      'Given names        JANE MARIE',
      'Date of birth      14.02.1990',
      'Date of expiry     03.08.2031',
      'Nationality        EXAMPLIAN',
    ].join('\n');
    const { data } = await extract(
      object({
        last_name: text('Surname'),
        birth_date: date('Date of birth'),
        expiry_date: date('Date of expiry'),
        nationality: text('Nationality'),
      }),
      card,
    );
    expect(data).toEqual({
      last_name: 'DOE',
      birth_date: '1990-02-14',
      expiry_date: '2031-08-03',
      nationality: 'EXAMPLIAN',
    });
  });

  it('finds labels in the ten languages and does not read "issued_by" as a date', async () => {
    const { data } = await extract(
      object({ birth_date: date('Birth date'), issued_by: text('Issued by') }),
      ['氏名 山田 太郎', '生年月日 1990年2月14日', 'Issued by: City of Example', '01.01.2020'].join(
        '\n',
      ),
    );
    expect(data).toEqual({ birth_date: '1990-02-14', issued_by: 'City of Example' });
  });

  it('reads a payslip: labels without a colon, a period of two dates, a deduction as a sum', async () => {
    const payslip = [
      'Payslip September 2025',
      'Employer Example Bakery Ltd',
      'Employee Jane Doe — Employee no. E-0087',
      'Pay period 01/09/2025 to 30/09/2025',
      'Gross pay 2,350.00',
      'Income tax -54.81',
      'Net pay 1,778.63',
    ].join('\n');
    const { data } = await extract(
      object({
        employer_name: text('Employer'),
        employee_name: text('Employee'),
        employee_number: text('Employee number'),
        period_start: date('Period start'),
        period_end: date('Period end'),
        gross_pay: number('Gross pay'),
        income_tax: number('Income tax'),
        net_pay: number('Net pay'),
      }),
      payslip,
    );
    expect(data).toEqual({
      employer_name: 'Example Bakery Ltd',
      employee_name: 'Jane Doe',
      employee_number: 'E-0087',
      period_start: '2025-09-01',
      period_end: '2025-09-30',
      gross_pay: 2350,
      income_tax: 54.81,
      net_pay: 1778.63,
    });
  });
});

describe('forms read as a person reads them', () => {
  it('reads a value beside its caption and under it, in a two-column table', async () => {
    const form = [
      'Account holder Mr Sam Example',
      'Bank\tExample Bank plc',
      '',
      'Closing balance          Currency',
      '3,138.32                 GBP',
    ].join('\n');
    const { data } = await extract(
      object({
        account_holder: text('Account holder'),
        bank_name: text('Bank'),
        closing_balance: number('Closing balance'),
        currency: text('Currency', { pattern: '^[A-Z]{3}$' }),
      }),
      form,
    );
    expect(data).toEqual({
      account_holder: 'Mr Sam Example',
      bank_name: 'Example Bank plc',
      closing_balance: 3138.32,
      currency: 'GBP',
    });
  });

  it('never takes a box number for a value', async () => {
    const { data } = await extract(
      object({ employer_name: text('Employer') }),
      ['Employer:  1', 'Wages  2'].join('\n'),
    );
    expect(data.employer_name).toBeUndefined();
  });
});

describe('the schema decides what fits', () => {
  it('drops a candidate that breaks the pattern for the next one', async () => {
    const { data } = await extract(
      object({ order_number: text('Order number', { pattern: '^PO-[0-9]+$' }) }),
      ['Order number: 12345', 'Reference', 'Order number: PO-778'].join('\n'),
    );
    expect(data.order_number).toBe('PO-778');
  });

  it('leaves a field null when nothing fits, and matches enums after folding', async () => {
    const { data } = await extract(
      object({
        order_number: text('Order number', { pattern: '^PO-[0-9]+$' }),
        express: { type: ['boolean', 'null'], title: 'Express' },
        kind: text('Kind', { enum: ['standard', 'licence', null] }),
        quantity: { type: ['integer', 'null'], title: 'Quantity', maximum: 100 },
      }),
      ['Order number: 12345', 'Express: Ja', 'Kind: LICENCE', 'Quantity: 500'].join('\n'),
    );
    expect(data).toEqual({ express: true, kind: 'licence' });
  });
});

describe('values without a label', () => {
  it('reads a CV: the name heading it, contacts by their form, its latest position and degree', async () => {
    const cv = [
      'Jane Example',
      'jane@example.org | +44 20 7946 0018 | linkedin.com/in/jane-example',
      'Experience',
      '04/2021 – today Data Analyst, Example Insurance AG, Cologne',
      '10/2017 – 03/2021 Junior Analyst, Sample Transit Company',
      'Education',
      '10/2014 – 09/2017 M.Sc. Statistics, Technical University of Exampleton',
    ].join('\n');
    const { data } = await extract(
      object({
        candidate_name: text('Name'),
        email: text('Email', { format: 'email' }),
        phone: text('Phone'),
        linkedin: text('LinkedIn'),
        current_job_title: text('Current job title'),
        current_employer: text('Current employer'),
        highest_degree: text('Highest degree'),
        degree_institution: text('Institution'),
      }),
      cv,
    );
    expect(data).toEqual({
      candidate_name: 'Jane Example',
      email: 'jane@example.org',
      phone: '+44 20 7946 0018',
      linkedin: 'linkedin.com/in/jane-example',
      current_job_title: 'Data Analyst',
      current_employer: 'Example Insurance AG',
      highest_degree: 'M.Sc. Statistics',
      degree_institution: 'Technical University of Exampleton',
    });
  });

  it('reads an agreement: title, kind, parties, dates in words and its governing law', async () => {
    const agreement = [
      'DISTRIBUTION AGREEMENT',
      '',
      'THIS AGREEMENT is made this 3rd day of March, 2021, by and between Alpha Example Widgets, LLC, a Delaware limited liability company ("Alpha"), and Beta Sample Trading, Inc., an Ohio corporation ("Beta").',
      'The term of this Agreement shall commence on April 1, 2021 and end on March 31, 2024.',
      'This Agreement shall be governed by and construed in accordance with the laws of the State of Ohio.',
    ].join('\n');
    const { data } = await extract(
      object({
        contract_title: text('Contract title'),
        contract_type: text('Type of contract', { enum: ['supply', 'distribution', null] }),
        party_a: text('First party'),
        party_b: text('Second party'),
        signing_date: date('Date of the agreement'),
        end_date: date('End of the term'),
        governing_law: text('Governing law'),
      }),
      agreement,
    );
    expect(data).toEqual({
      contract_title: 'DISTRIBUTION AGREEMENT',
      contract_type: 'distribution',
      party_a: 'Alpha Example Widgets, LLC',
      party_b: 'Beta Sample Trading, Inc.',
      signing_date: '2021-03-03',
      end_date: '2024-03-31',
      governing_law: 'State of Ohio',
    });
  });
});

describe('tables of other kinds', () => {
  it('reads a bank statement’s transactions under header words of the item properties', async () => {
    const statement = [
      'Date\tDescription\tMoney in\tBalance',
      '02/06/2025\tCard payment grocer\t\t1190.37',
      '05/06/2025\tSalary\t450.00\t1640.37',
    ].join('\n');
    const { data } = await extract(
      object({
        transactions: {
          type: 'array',
          items: object({
            booking_date: date('Date'),
            description: text('Description'),
            money_in: number('Money in'),
            balance: number('Balance'),
          }),
        },
      }),
      statement,
    );
    expect(data.transactions).toEqual([
      { booking_date: '2025-06-02', description: 'Card payment grocer', balance: 1190.37 },
      { booking_date: '2025-06-05', description: 'Salary', money_in: 450, balance: 1640.37 },
    ]);
  });
});
