/**
 * The French texts the hosted page shows before the introduction (the app around the
 * views, its errors, and the extractor's labels: ids app., error., label.), loaded with the
 * locale. The rest are in ../later/fr.ts; ../fr.ts is the whole catalogue.
 */
import { str, type TemplateMap } from '@lit/localize';

export const templates: TemplateMap = {
  'app.view-load-error':
    'Cette partie de la page n’a pas pu être chargée. Vérifiez votre connexion et réessayez.',
  'app.loading': 'Chargement…',
  'app.load-error-title': 'Impossible d’ouvrir cette page',
  'app.try-again': 'Réessayer',
  'app.step-count': str`Étape ${0} sur ${1}`,
  'app.step-introduction': 'Début',
  'app.step-bucket': 'Envoi',
  'app.step-extraction': 'Extraction',
  'app.step-results': 'Vérification',
  'app.missing-session':
    'Cette page nécessite une session d’intégration. Ouvrez à nouveau le lien qui vous a été transmis.',
  'app.session-invalid':
    'Cette session a expiré ou n’est pas valide. Demandez un nouveau lien à qui vous a transmis celui-ci.',
  'app.extractor-gone': 'L’extracteur de cette session n’existe plus.',
  'label.page-title': 'Extraire les données de documents',
  'label.introduction-view-heading': 'Extraire les données de vos documents',
  'label.introduction-view-description':
    'Téléversez vos documents : nous en extrayons les données pour que vous puissiez les vérifier.',
  'label.introduction-view-next-button-label': 'Commencer',
  'label.bucket-view-heading': 'Téléversez vos documents',
  'label.bucket-view-description': 'Ajoutez les fichiers dont vous souhaitez extraire les données.',
  'label.bucket-view-back-button-label': 'Retour',
  'label.bucket-view-continue-button-label': 'Continuer',
  'label.bucket-view-begin-button-label': 'Lancer l’extraction',
  'label.extraction-view-heading': 'Extraction de vos données',
  'label.extraction-view-description':
    'Cela peut prendre un moment. Vous pouvez mettre en pause ou annuler à tout moment.',
  'label.extraction-view-back-button-label': 'Retour',
  'label.extraction-view-continue-button-label': 'Continuer',
  'label.extraction-view-restart-button-label': 'Recommencer',
  'label.extraction-view-start-button-label': 'Démarrer',
  'label.extraction-view-cancel-button-label': 'Annuler',
  'label.extraction-view-pause-button-label': 'Pause',
  'label.results-view-heading': 'Vérifiez vos données',
  'label.results-view-description':
    'Vérifiez les valeurs extraites, corrigez ce qui est inexact, puis envoyez.',
  'label.results-view-back-button-label': 'Retour',
  'label.results-view-submit-button-label': 'Envoyer',
  'error.network': 'Le service est injoignable. Vérifiez votre connexion et réessayez.',
  'error.not-found': 'L’élément recherché est introuvable. Il a peut-être été supprimé.',
  'error.too-large': 'Le fichier est trop volumineux.',
  'error.server': 'Le service a rencontré un problème. Veuillez réessayer dans un instant.',
  'error.refused': str`Le service a refusé la requête (HTTP ${0}).`,
  'error.unexpected-answer':
    'Le service a renvoyé une réponse inattendue. Veuillez réessayer dans un instant.',
  'error.session-ended':
    'Votre session a expiré, cette action n’a donc pas pu être effectuée. Ce que vous avez saisi est enregistré : demandez un nouveau lien pour continuer.',
};
