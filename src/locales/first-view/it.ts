/**
 * The Italian texts the hosted page shows before the introduction (the app around the
 * views, its errors, and the extractor's labels: ids app., error., label.), loaded with the
 * locale. The rest are in ../later/it.ts; ../it.ts is the whole catalogue.
 */
import { str, type TemplateMap } from '@lit/localize';

export const templates: TemplateMap = {
  'app.view-load-error':
    'Non è stato possibile caricare questa parte della pagina. Verifichi la connessione e riprovi.',
  'app.loading': 'Caricamento…',
  'app.load-error-title': 'Impossibile aprire questa pagina',
  'app.try-again': 'Riprova',
  'app.step-count': str`Passaggio ${0} di ${1}`,
  'app.step-introduction': 'Inizio',
  'app.step-bucket': 'Caricamento',
  'app.step-extraction': 'Estrazione',
  'app.step-results': 'Revisione',
  'app.missing-session':
    'Questa pagina richiede una sessione di incorporamento. Riapra il link che ha ricevuto.',
  'app.session-invalid':
    'Questa sessione è scaduta o non è valida. Chieda un nuovo link a chi le ha inviato questo.',
  'app.extractor-gone': 'L’estrattore di questa sessione non esiste più.',
  'label.page-title': 'Estrai dati dai documenti',
  'label.introduction-view-heading': 'Estragga i dati dai suoi documenti',
  'label.introduction-view-description':
    'Carichi i suoi documenti: ne leggeremo i dati perché lei possa verificarli.',
  'label.introduction-view-next-button-label': 'Inizia',
  'label.bucket-view-heading': 'Carichi i suoi documenti',
  'label.bucket-view-description': 'Aggiunga i file da cui estrarre i dati.',
  'label.bucket-view-back-button-label': 'Indietro',
  'label.bucket-view-continue-button-label': 'Continua',
  'label.bucket-view-begin-button-label': 'Avvia l’estrazione',
  'label.extraction-view-heading': 'Estrazione dei dati in corso',
  'label.extraction-view-description':
    'Potrebbe richiedere qualche istante. Può mettere in pausa o annullare in qualsiasi momento.',
  'label.extraction-view-back-button-label': 'Indietro',
  'label.extraction-view-continue-button-label': 'Continua',
  'label.extraction-view-restart-button-label': 'Ricomincia',
  'label.extraction-view-start-button-label': 'Avvia',
  'label.extraction-view-cancel-button-label': 'Annulla',
  'label.extraction-view-pause-button-label': 'Pausa',
  'label.results-view-heading': 'Verifichi i suoi dati',
  'label.results-view-description':
    'Controlli i valori estratti, corregga eventuali errori e poi invii.',
  'label.results-view-back-button-label': 'Indietro',
  'label.results-view-submit-button-label': 'Invia',
  'error.network':
    'Non è stato possibile raggiungere il servizio. Verifichi la connessione e riprovi.',
  'error.not-found': 'Non è stato possibile trovare quanto cercato. Potrebbe essere stato rimosso.',
  'error.too-large': 'Il file è troppo grande.',
  'error.server': 'Il servizio ha riscontrato un problema. Riprovi tra un momento.',
  'error.refused': str`Il servizio ha rifiutato la richiesta (HTTP ${0}).`,
  'error.unexpected-answer':
    'Il servizio ha inviato una risposta inattesa. Riprovi tra un momento.',
  'error.session-ended':
    'La sessione è scaduta, quindi non è stato possibile completare l’operazione. Quanto inserito finora è salvato: chieda un nuovo link per continuare.',
};
