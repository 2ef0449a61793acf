/**
 * The German texts the hosted page shows before the introduction (the app around the
 * views, its errors, and the extractor's labels: ids app., error., label.), loaded with the
 * locale. The rest are in ../later/de.ts; ../de.ts is the whole catalogue.
 */
import { str, type TemplateMap } from '@lit/localize';

export const templates: TemplateMap = {
  'app.view-load-error':
    'Dieser Teil der Seite konnte nicht geladen werden. Bitte prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  'app.loading': 'Wird geladen …',
  'app.load-error-title': 'Diese Seite konnte nicht geöffnet werden',
  'app.try-again': 'Erneut versuchen',
  'app.step-count': str`Schritt ${0} von ${1}`,
  'app.step-introduction': 'Beginn',
  'app.step-bucket': 'Hochladen',
  'app.step-extraction': 'Extraktion',
  'app.step-results': 'Prüfen',
  'app.missing-session':
    'Diese Seite benötigt eine Einbettungssitzung. Bitte öffnen Sie den Link, den Sie erhalten haben, erneut.',
  'app.session-invalid':
    'Diese Sitzung ist abgelaufen oder ungültig. Bitten Sie die Person oder Stelle, die Ihnen diesen Link geschickt hat, um einen neuen.',
  'app.extractor-gone': 'Der Extraktor dieser Sitzung existiert nicht mehr.',
  'label.page-title': 'Dokumentdaten extrahieren',
  'label.introduction-view-heading': 'Daten aus Ihren Dokumenten extrahieren',
  'label.introduction-view-description':
    'Laden Sie Ihre Dokumente hoch – wir lesen die Daten für Sie aus, damit Sie sie prüfen können.',
  'label.introduction-view-next-button-label': 'Los geht’s',
  'label.bucket-view-heading': 'Dokumente hochladen',
  'label.bucket-view-description':
    'Fügen Sie die Dateien hinzu, aus denen Daten extrahiert werden sollen.',
  'label.bucket-view-back-button-label': 'Zurück',
  'label.bucket-view-continue-button-label': 'Weiter',
  'label.bucket-view-begin-button-label': 'Extraktion starten',
  'label.extraction-view-heading': 'Ihre Daten werden extrahiert',
  'label.extraction-view-description':
    'Das kann einen Moment dauern. Sie können jederzeit anhalten oder abbrechen.',
  'label.extraction-view-back-button-label': 'Zurück',
  'label.extraction-view-continue-button-label': 'Weiter',
  'label.extraction-view-restart-button-label': 'Neu starten',
  'label.extraction-view-start-button-label': 'Starten',
  'label.extraction-view-cancel-button-label': 'Abbrechen',
  'label.extraction-view-pause-button-label': 'Anhalten',
  'label.results-view-heading': 'Daten prüfen',
  'label.results-view-description':
    'Prüfen Sie die extrahierten Werte, korrigieren Sie Fehler und senden Sie sie dann ab.',
  'label.results-view-back-button-label': 'Zurück',
  'label.results-view-submit-button-label': 'Absenden',
  'error.network':
    'Der Dienst ist nicht erreichbar. Bitte prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  'error.not-found': 'Das Gesuchte wurde nicht gefunden. Möglicherweise wurde es entfernt.',
  'error.too-large': 'Die Datei ist zu groß.',
  'error.server':
    'Beim Dienst ist ein Problem aufgetreten. Bitte versuchen Sie es in Kürze erneut.',
  'error.refused': str`Der Dienst hat die Anfrage abgelehnt (HTTP ${0}).`,
  'error.unexpected-answer':
    'Der Dienst hat eine unerwartete Antwort gesendet. Bitte versuchen Sie es in Kürze erneut.',
  'error.session-ended':
    'Ihre Sitzung ist abgelaufen, daher konnte dies nicht ausgeführt werden. Ihre bisherigen Eingaben sind gespeichert: Bitten Sie um einen neuen Link, um fortzufahren.',
};
