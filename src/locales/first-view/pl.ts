/**
 * The Polish texts the hosted page shows before the introduction (the app around the
 * views, its errors, and the extractor's labels: ids app., error., label.), loaded with the
 * locale. The rest are in ../later/pl.ts; ../pl.ts is the whole catalogue.
 */
import { str, type TemplateMap } from '@lit/localize';

export const templates: TemplateMap = {
  'app.view-load-error':
    'Nie udało się wczytać tej części strony. Sprawdź połączenie i spróbuj ponownie.',
  'app.loading': 'Wczytywanie…',
  'app.load-error-title': 'Nie udało się otworzyć tej strony',
  'app.try-again': 'Spróbuj ponownie',
  'app.step-count': str`Krok ${0} z ${1}`,
  'app.step-introduction': 'Start',
  'app.step-bucket': 'Przesyłanie',
  'app.step-extraction': 'Ekstrakcja',
  'app.step-results': 'Weryfikacja',
  'app.missing-session': 'Ta strona wymaga sesji osadzania. Otwórz ponownie otrzymany link.',
  'app.session-invalid':
    'Ta sesja wygasła lub jest nieprawidłowa. Poproś nadawcę tego linku o nowy.',
  'app.extractor-gone': 'Ekstraktor tej sesji już nie istnieje.',
  'label.page-title': 'Wyodrębnij dane z dokumentów',
  'label.introduction-view-heading': 'Wyodrębnij dane ze swoich dokumentów',
  'label.introduction-view-description':
    'Prześlij dokumenty, a my odczytamy z nich dane, abyś mógł je sprawdzić.',
  'label.introduction-view-next-button-label': 'Zaczynamy',
  'label.bucket-view-heading': 'Prześlij dokumenty',
  'label.bucket-view-description': 'Dodaj pliki, z których chcesz wyodrębnić dane.',
  'label.bucket-view-back-button-label': 'Wstecz',
  'label.bucket-view-continue-button-label': 'Dalej',
  'label.bucket-view-begin-button-label': 'Rozpocznij ekstrakcję',
  'label.extraction-view-heading': 'Wyodrębnianie danych',
  'label.extraction-view-description':
    'To może chwilę potrwać. W każdej chwili możesz wstrzymać lub anulować.',
  'label.extraction-view-back-button-label': 'Wstecz',
  'label.extraction-view-continue-button-label': 'Dalej',
  'label.extraction-view-restart-button-label': 'Zacznij od nowa',
  'label.extraction-view-start-button-label': 'Rozpocznij',
  'label.extraction-view-cancel-button-label': 'Anuluj',
  'label.extraction-view-pause-button-label': 'Wstrzymaj',
  'label.results-view-heading': 'Sprawdź dane',
  'label.results-view-description':
    'Sprawdź wyodrębnione wartości, popraw błędy, a następnie wyślij.',
  'label.results-view-back-button-label': 'Wstecz',
  'label.results-view-submit-button-label': 'Wyślij',
  'error.network': 'Nie udało się połączyć z usługą. Sprawdź połączenie i spróbuj ponownie.',
  'error.not-found': 'Nie znaleziono szukanego elementu. Mógł zostać usunięty.',
  'error.too-large': 'Plik jest za duży.',
  'error.server': 'W usłudze wystąpił problem. Spróbuj ponownie za chwilę.',
  'error.refused': str`Usługa odrzuciła żądanie (HTTP ${0}).`,
  'error.unexpected-answer': 'Usługa wysłała nieoczekiwaną odpowiedź. Spróbuj ponownie za chwilę.',
  'error.session-ended':
    'Sesja wygasła, więc nie udało się tego wykonać. To, co wprowadzono wcześniej, zostało zapisane: poproś o nowy link, aby kontynuować.',
};
