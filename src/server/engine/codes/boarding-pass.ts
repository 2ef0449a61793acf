/**
 * The bar-coded boarding pass of IATA Resolution 792 (BCBP): the PDF417, Aztec or QR code
 * on a boarding pass, text beginning `M1` (format M, one leg) to `M4`. Each leg's mandatory
 * items sit at fixed places (passenger name, booking reference, airports, carrier, flight,
 * day of the year, seat, sequence); conditional items follow in a block whose size is
 * given in hexadecimal. Only what sits at a fixed place, and the date the pass was issued
 * (which gives the flight's year), is read.
 */
import type { CodePart } from '../types.js';
import { presentParts, type ParsedCode } from './payment-qr.js';

/** Characters of the first leg's mandatory items, and of each later leg's. */
const firstLegLength = 60;
const laterLegLength = 37;

interface Leg {
  bookingReference: string;
  from: string;
  to: string;
  carrier: string;
  flightNumber: string;
  /** Day of the year, 1 to 366. */
  flightDay: number;
  compartment: string;
  seat: string;
  sequence: string;
}

/**
 * A boarding pass's named parts, or undefined when the text is not one. `today` settles
 * the year: the pass's date of issue gives only the year's last digit, taken as the most
 * recent such year up to `today`, and the flight is the first such day on or after it.
 */
export function parseBoardingPass(text: string, today = new Date()): ParsedCode | undefined {
  const match = /^M([1-4])/.exec(text);
  if (!match || text.length < firstLegLength) return undefined;
  const legCount = Number(match[1]);
  const passenger = text.slice(2, 22).trim();
  const legs: Leg[] = [];
  let issued: Date | undefined;
  let at = 23;
  for (let index = 0; index < legCount; index++) {
    if (at + laterLegLength > text.length) break;
    const item = (start: number, length: number) => text.slice(at + start, at + start + length);
    const leg: Leg = {
      bookingReference: item(0, 7).trim(),
      from: item(7, 3).trim(),
      to: item(10, 3).trim(),
      carrier: item(13, 3).trim(),
      flightNumber: item(16, 5)
        .trim()
        .replace(/^0+(?=\d)/, ''),
      flightDay: Number(item(21, 3)),
      compartment: item(24, 1).trim(),
      seat: item(25, 4)
        .trim()
        .replace(/^0+(?=\d)/, ''),
      sequence: item(29, 5)
        .trim()
        .replace(/^0+(?=\d)/, ''),
    };
    if (!/^[A-Z]{3}$/.test(leg.from) || !/^[A-Z]{3}$/.test(leg.to)) return undefined;
    legs.push(leg);
    const conditionalSize = Number.parseInt(item(35, 2), 16);
    const conditional = text.slice(
      at + laterLegLength,
      at + laterLegLength + (conditionalSize || 0),
    );
    if (index === 0) issued = issueDate(conditional, today);
    at += laterLegLength + (Number.isNaN(conditionalSize) ? 0 : conditionalSize);
  }
  if (legs.length === 0 || passenger === '') return undefined;
  const parts: CodePart[] = presentParts([['passengerName', 'Passenger name', passenger]]);
  legs.forEach((leg, index) => {
    // The first leg's parts go by their plain names; a connection's are numbered.
    const prefix = index === 0 ? '' : `Leg ${index + 1} `;
    const key = (name: string) =>
      index === 0 ? name : `leg${index + 1}${name[0]!.toUpperCase()}${name.slice(1)}`;
    const date = issued && flightDate(leg.flightDay, issued);
    parts.push(
      ...presentParts([
        [key('bookingReference'), `${prefix}Booking reference`, leg.bookingReference],
        [key('from'), `${prefix}From airport`, leg.from],
        [key('to'), `${prefix}To airport`, leg.to],
        [key('carrier'), `${prefix}Carrier`, leg.carrier],
        [
          key('flightNumber'),
          `${prefix}Flight number`,
          `${leg.carrier} ${leg.flightNumber}`.trim(),
        ],
        [key('flightDate'), `${prefix}Flight date`, date],
        [
          key('flightDayOfYear'),
          `${prefix}Flight day of year`,
          leg.flightDay > 0 && leg.flightDay <= 366 ? String(leg.flightDay) : '',
        ],
        [key('compartment'), `${prefix}Compartment`, leg.compartment],
        [key('seat'), `${prefix}Seat`, leg.seat],
        [key('sequenceNumber'), `${prefix}Sequence number`, leg.sequence],
      ]),
    );
  });
  return { format: 'iata-bcbp', title: 'Boarding pass (IATA BCBP)', parts };
}

/**
 * The date of issue in the first leg's conditional items: `>`, the version, the size of
 * the unique items (hex), then passenger description, check-in source, issuance source and
 * the date (the year's last digit and the day of the year).
 */
function issueDate(conditional: string, today: Date): Date | undefined {
  const match = /^>.[0-9A-F]{2}...(\d)(\d{3})/.exec(conditional);
  if (!match) return undefined;
  const digit = Number(match[1]);
  const day = Number(match[2]);
  if (day < 1 || day > 366) return undefined;
  let year = today.getUTCFullYear();
  while (year % 10 !== digit) year--;
  return dayOfYear(year, day);
}

function dayOfYear(year: number, day: number): Date {
  return new Date(Date.UTC(year, 0, day));
}

/** The first date on or after `issued` that is day `day` of its year, as YYYY-MM-DD. */
function flightDate(day: number, issued: Date): string | undefined {
  if (!(day >= 1 && day <= 366)) return undefined;
  for (let year = issued.getUTCFullYear(); year <= issued.getUTCFullYear() + 1; year++) {
    const date = dayOfYear(year, day);
    // Day 366 of a year that has 365 is the next year's first: not this year's.
    if (date.getUTCFullYear() === year && date >= issued) return date.toISOString().slice(0, 10);
  }
  return undefined;
}
