/**
 * The Spanish texts the hosted page shows before the introduction (the app around the
 * views, its errors, and the extractor's labels: ids app., error., label.), loaded with the
 * locale. The rest are in ../later/es.ts; ../es.ts is the whole catalogue.
 */
import { str, type TemplateMap } from '@lit/localize';

export const templates: TemplateMap = {
  'app.view-load-error':
    'No se ha podido cargar esta parte de la página. Compruebe su conexión e inténtelo de nuevo.',
  'app.loading': 'Cargando…',
  'app.load-error-title': 'No se ha podido abrir esta página',
  'app.try-again': 'Reintentar',
  'app.step-count': str`Paso ${0} de ${1}`,
  'app.step-introduction': 'Inicio',
  'app.step-bucket': 'Subida',
  'app.step-extraction': 'Extracción',
  'app.step-results': 'Revisión',
  'app.missing-session':
    'Esta página necesita una sesión de inserción. Vuelva a abrir el enlace que recibió.',
  'app.session-invalid':
    'Esta sesión ha finalizado o no es válida. Pida un enlace nuevo a quien le envió este.',
  'app.extractor-gone': 'El extractor de esta sesión ya no existe.',
  'label.page-title': 'Extraer datos de documentos',
  'label.introduction-view-heading': 'Extraiga datos de sus documentos',
  'label.introduction-view-description':
    'Suba sus documentos y leeremos sus datos para que usted los revise.',
  'label.introduction-view-next-button-label': 'Empezar',
  'label.bucket-view-heading': 'Suba sus documentos',
  'label.bucket-view-description': 'Añada los archivos de los que desea extraer datos.',
  'label.bucket-view-back-button-label': 'Atrás',
  'label.bucket-view-continue-button-label': 'Continuar',
  'label.bucket-view-begin-button-label': 'Iniciar la extracción',
  'label.extraction-view-heading': 'Extrayendo sus datos',
  'label.extraction-view-description':
    'Puede tardar un momento. Puede pausar o cancelar en cualquier momento.',
  'label.extraction-view-back-button-label': 'Atrás',
  'label.extraction-view-continue-button-label': 'Continuar',
  'label.extraction-view-restart-button-label': 'Empezar de nuevo',
  'label.extraction-view-start-button-label': 'Iniciar',
  'label.extraction-view-cancel-button-label': 'Cancelar',
  'label.extraction-view-pause-button-label': 'Pausar',
  'label.results-view-heading': 'Revise sus datos',
  'label.results-view-description':
    'Revise los valores extraídos, corrija lo que no sea correcto y, después, envíelos.',
  'label.results-view-back-button-label': 'Atrás',
  'label.results-view-submit-button-label': 'Enviar',
  'error.network':
    'No hemos podido conectar con el servicio. Compruebe su conexión e inténtelo de nuevo.',
  'error.not-found': 'No hemos encontrado lo que buscaba. Es posible que se haya eliminado.',
  'error.too-large': 'El archivo es demasiado grande.',
  'error.server': 'El servicio ha tenido un problema. Inténtelo de nuevo en unos momentos.',
  'error.refused': str`El servicio ha rechazado la solicitud (HTTP ${0}).`,
  'error.unexpected-answer':
    'El servicio ha enviado una respuesta inesperada. Inténtelo de nuevo en unos momentos.',
  'error.session-ended':
    'Su sesión ha finalizado, por lo que no se pudo realizar esta acción. Lo que introdujo está guardado: pida un enlace nuevo para continuar.',
};
