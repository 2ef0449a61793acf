/**
 * The Portuguese texts the hosted page shows before the introduction (the app around the
 * views, its errors, and the extractor's labels: ids app., error., label.), loaded with the
 * locale. The rest are in ../later/pt.ts; ../pt.ts is the whole catalogue.
 */
import { str, type TemplateMap } from '@lit/localize';

export const templates: TemplateMap = {
  'app.view-load-error':
    'Não foi possível carregar esta parte da página. Verifique a sua ligação e tente novamente.',
  'app.loading': 'A carregar…',
  'app.load-error-title': 'Não foi possível abrir esta página',
  'app.try-again': 'Tentar novamente',
  'app.step-count': str`Passo ${0} de ${1}`,
  'app.step-introduction': 'Início',
  'app.step-bucket': 'Carregamento',
  'app.step-extraction': 'Extração',
  'app.step-results': 'Revisão',
  'app.missing-session':
    'Esta página precisa de uma sessão de incorporação. Abra novamente a ligação que recebeu.',
  'app.session-invalid':
    'Esta sessão terminou ou não é válida. Peça uma nova ligação a quem lhe enviou esta.',
  'app.extractor-gone': 'O extrator desta sessão já não existe.',
  'label.page-title': 'Extrair dados de documentos',
  'label.introduction-view-heading': 'Extraia dados dos seus documentos',
  'label.introduction-view-description':
    'Carregue os seus documentos e nós lemos os dados para que os possa verificar.',
  'label.introduction-view-next-button-label': 'Começar',
  'label.bucket-view-heading': 'Carregue os seus documentos',
  'label.bucket-view-description': 'Adicione os ficheiros dos quais pretende extrair dados.',
  'label.bucket-view-back-button-label': 'Voltar',
  'label.bucket-view-continue-button-label': 'Continuar',
  'label.bucket-view-begin-button-label': 'Iniciar extração',
  'label.extraction-view-heading': 'A extrair os seus dados',
  'label.extraction-view-description':
    'Pode demorar um momento. Pode pausar ou cancelar a qualquer momento.',
  'label.extraction-view-back-button-label': 'Voltar',
  'label.extraction-view-continue-button-label': 'Continuar',
  'label.extraction-view-restart-button-label': 'Recomeçar',
  'label.extraction-view-start-button-label': 'Iniciar',
  'label.extraction-view-cancel-button-label': 'Cancelar',
  'label.extraction-view-pause-button-label': 'Pausar',
  'label.results-view-heading': 'Verifique os seus dados',
  'label.results-view-description':
    'Verifique os valores extraídos, corrija o que estiver errado e depois envie.',
  'label.results-view-back-button-label': 'Voltar',
  'label.results-view-submit-button-label': 'Enviar',
  'error.network':
    'Não foi possível contactar o serviço. Verifique a sua ligação e tente novamente.',
  'error.not-found': 'Não foi possível encontrar o que procurava. Pode ter sido removido.',
  'error.too-large': 'O ficheiro é demasiado grande.',
  'error.server': 'O serviço encontrou um problema. Tente novamente dentro de momentos.',
  'error.refused': str`O serviço recusou o pedido (HTTP ${0}).`,
  'error.unexpected-answer':
    'O serviço enviou uma resposta inesperada. Tente novamente dentro de momentos.',
  'error.session-ended':
    'A sua sessão terminou, por isso não foi possível concluir esta ação. O que introduziu está guardado: peça uma nova ligação para continuar.',
};
