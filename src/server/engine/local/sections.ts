/**
 * A CV's sections, read as a person reads them: under the heading of education
 * ("Education", "Ausbildung", "Formación"…) the first entry's degree and institution, under
 * the heading of experience the first entry's position and organisation (CVs list the most
 * recent first). Guesses from layout, rated for review.
 */
import { guessed } from './confidence.js';
import { foldText } from './fit.js';
import type { Line, Reading } from './reading.js';
import type { ValueHit } from './values.js';

const educationHeadings =
  /^(?:education|academic background|ausbildung|studium|bildungsweg|formacion|educacion|formation|istruzione|formazione|opleiding|wyksztalcenie|edukacja|formacao|educacao|学歴|التعليم)$/u;
const experienceHeadings =
  /^(?:(?:work |professional )?experience|employment(?: history)?|berufserfahrung|berufliche erfahrung|experiencia(?: profesional| laboral)?|experience professionnelle|esperienz[ae](?: professionali| lavorative)?|werkervaring|ervaring|doswiadczenie(?: zawodowe)?|experiencia|experiencia profissional|職歴|الخبرة)$/u;

const institutionWords =
  /universi|college|institut|school|hochschule|escuela|ecole|école|politecnic|politècnica|politécnica|akadem|academ|polytechn|大学|جامعة/iu;
const degreeWords =
  /\b(?:bachelor|master|m\.?\s?sc|b\.?\s?sc|m\.?\s?a\.|b\.?\s?a\.|mba|ph\.?\s?d|doctor|diplom|máster|master|licenciatura|grado|laurea|licence|magister|ingenieur|associate)\b/iu;
/** A stretch of dates at the start of an entry: "10/2014 – 09/2017", "seit 04/2021". */
const leadingDates =
  /^(?:seit|since|desde|depuis|dal|od|sinds)?[\s\d/.–\-—]*(?:(?:today|present|heute|actualidad|hoy|now|oggi)\s+)?(?=\p{L})/iu;
const dateOnly =
  /^[\s\p{L}.]{0,12}\d{2,4}\s*[–\-—]\s*(?:[\p{L}.]{0,12}\s*\d{2,4}|present|today|heute|actualidad|now)\s*$/iu;

/** A part of an entry that is its date: a year, or "present". */
const datePart = /\b(?:19|20)\d{2}\b|^(?:present|today|heute|actualidad|now|aujourd'hui|oggi)$/iu;

/** The lines of the section under the first heading that matches, up to the next heading. */
function section(reading: Reading, heading: RegExp): Line[] {
  const start = reading.lines.findIndex((line) =>
    heading.test(foldText(line.text.replace(/^[#\s*•-]+/, '')).replace(/:$/, '')),
  );
  if (start < 0) return [];
  const lines: Line[] = [];
  for (const line of reading.lines.slice(start + 1, start + 40)) {
    const text = foldText(line.text);
    if (educationHeadings.test(text) || experienceHeadings.test(text)) break;
    if (line.text.trim() !== '') lines.push(line);
  }
  return lines;
}

/** The parts of an entry's line: its cells, split again at commas, dashes and semicolons. */
function parts(line: Line): { text: string; start: number }[] {
  const found: { text: string; start: number }[] = [];
  for (const cell of line.cells) {
    let offset = 0;
    for (const piece of cell.text.split(/(,\s|;\s|\s[—–|]\s)/u)) {
      const lead = piece.length - piece.replace(/^[\s•*-]+/u, '').length;
      const text = piece.trim().replace(/^[•*-]\s*/u, '');
      if (text !== '' && !/^(,\s|;\s|\s[—–|]\s)$/u.test(piece))
        found.push({ text, start: cell.start + offset + lead });
      offset += piece.length;
    }
  }
  return found;
}

function hit(part: { text: string; start: number } | undefined): ValueHit | undefined {
  if (!part) return undefined;
  const value = part.text
    .replace(leadingDates, '')
    .replace(/\s*\([^)]*\)\s*$/, '')
    .trim();
  if (!/\p{L}{2}/u.test(value)) return undefined;
  const start = part.start + part.text.indexOf(value);
  return { value, start, end: start + value.length, confidence: guessed };
}

/** The first degree or institution named under the education heading. */
export function educationEntry(
  reading: Reading,
  role: 'degree' | 'institution',
): ValueHit | undefined {
  const pattern = role === 'degree' ? degreeWords : institutionWords;
  for (const line of section(reading, educationHeadings)) {
    const part = parts(line).find((candidate) => pattern.test(candidate.text));
    if (part) return hit(part);
  }
  return undefined;
}

/**
 * The first entry under the experience heading: its position is the first part of its
 * first line that is not a date, its organisation the next part, else the next line's first.
 */
export function experienceEntry(
  reading: Reading,
  role: 'title' | 'employer',
): ValueHit | undefined {
  const lines = section(reading, experienceHeadings).filter((line) => !dateOnly.test(line.text));
  const [first, second] = lines;
  if (!first) return undefined;
  const words = parts(first).filter(
    (part) => !dateOnly.test(part.text) && !datePart.test(part.text) && /\p{L}{2}/u.test(part.text),
  );
  if (role === 'title') return hit(words[0]);
  return hit(words[1] ?? (second ? parts(second)[0] : undefined));
}
