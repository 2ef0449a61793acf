/**
 * The Dutch texts the hosted page shows before the introduction (the app around the
 * views, its errors, and the extractor's labels: ids app., error., label.), loaded with the
 * locale. The rest are in ../later/nl.ts; ../nl.ts is the whole catalogue.
 */
import { str, type TemplateMap } from '@lit/localize';

export const templates: TemplateMap = {
  'app.view-load-error':
    'Dit deel van de pagina kon niet worden geladen. Controleer uw verbinding en probeer het opnieuw.',
  'app.loading': 'Laden…',
  'app.load-error-title': 'Deze pagina kon niet worden geopend',
  'app.try-again': 'Opnieuw proberen',
  'app.step-count': str`Stap ${0} van ${1}`,
  'app.step-introduction': 'Start',
  'app.step-bucket': 'Uploaden',
  'app.step-extraction': 'Extractie',
  'app.step-results': 'Controle',
  'app.missing-session':
    'Deze pagina heeft een insluitsessie nodig. Open de link die u hebt ontvangen opnieuw.',
  'app.session-invalid':
    'Deze sessie is verlopen of ongeldig. Vraag degene die u deze link stuurde om een nieuwe.',
  'app.extractor-gone': 'De extractor van deze sessie bestaat niet meer.',
  'label.page-title': 'Documentgegevens extraheren',
  'label.introduction-view-heading': 'Gegevens uit uw documenten extraheren',
  'label.introduction-view-description':
    'Upload uw documenten; wij lezen de gegevens eruit, zodat u ze kunt controleren.',
  'label.introduction-view-next-button-label': 'Aan de slag',
  'label.bucket-view-heading': 'Upload uw documenten',
  'label.bucket-view-description': 'Voeg de bestanden toe waaruit u gegevens wilt extraheren.',
  'label.bucket-view-back-button-label': 'Terug',
  'label.bucket-view-continue-button-label': 'Doorgaan',
  'label.bucket-view-begin-button-label': 'Extractie starten',
  'label.extraction-view-heading': 'Uw gegevens worden geëxtraheerd',
  'label.extraction-view-description':
    'Dit kan even duren. U kunt op elk moment pauzeren of annuleren.',
  'label.extraction-view-back-button-label': 'Terug',
  'label.extraction-view-continue-button-label': 'Doorgaan',
  'label.extraction-view-restart-button-label': 'Opnieuw beginnen',
  'label.extraction-view-start-button-label': 'Starten',
  'label.extraction-view-cancel-button-label': 'Annuleren',
  'label.extraction-view-pause-button-label': 'Pauzeren',
  'label.results-view-heading': 'Controleer uw gegevens',
  'label.results-view-description':
    'Controleer de geëxtraheerde waarden, corrigeer wat niet klopt en verzend ze dan.',
  'label.results-view-back-button-label': 'Terug',
  'label.results-view-submit-button-label': 'Verzenden',
  'error.network':
    'We konden de dienst niet bereiken. Controleer uw verbinding en probeer het opnieuw.',
  'error.not-found': 'We konden niet vinden wat u zocht. Het is mogelijk verwijderd.',
  'error.too-large': 'Het bestand is te groot.',
  'error.server': 'De dienst had een probleem. Probeer het zo meteen opnieuw.',
  'error.refused': str`De dienst heeft het verzoek geweigerd (HTTP ${0}).`,
  'error.unexpected-answer':
    'De dienst stuurde een onverwacht antwoord. Probeer het zo meteen opnieuw.',
  'error.session-ended':
    'Uw sessie is verlopen, daarom kon dit niet worden uitgevoerd. Wat u eerder hebt ingevoerd, is opgeslagen: vraag om een nieuwe link om verder te gaan.',
};
