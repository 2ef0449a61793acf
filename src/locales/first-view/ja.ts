/**
 * The Japanese texts the hosted page shows before the introduction (the app around the
 * views, its errors, and the extractor's labels: ids app., error., label.), loaded with the
 * locale. The rest are in ../later/ja.ts; ../ja.ts is the whole catalogue.
 */
import { str, type TemplateMap } from '@lit/localize';

export const templates: TemplateMap = {
  'app.view-load-error':
    'ページのこの部分を読み込めませんでした。接続を確認して、もう一度お試しください。',
  'app.loading': '読み込み中…',
  'app.load-error-title': 'このページを開けませんでした',
  'app.try-again': '再試行',
  'app.step-count': str`ステップ ${0}/${1}`,
  'app.step-introduction': '開始',
  'app.step-bucket': 'アップロード',
  'app.step-extraction': '抽出',
  'app.step-results': '確認',
  'app.missing-session':
    'このページを使用するには埋め込みセッションが必要です。受け取ったリンクをもう一度開いてください。',
  'app.session-invalid':
    'このセッションは終了したか、無効です。このリンクの送信元に新しいリンクを依頼してください。',
  'app.extractor-gone': 'このセッションの抽出設定は存在しません。',
  'label.page-title': '書類データの抽出',
  'label.introduction-view-heading': '書類からデータを抽出',
  'label.introduction-view-description':
    '書類をアップロードしてください。データを読み取り、確認できるようにします。',
  'label.introduction-view-next-button-label': '始める',
  'label.bucket-view-heading': '書類をアップロード',
  'label.bucket-view-description': 'データを抽出するファイルを追加してください。',
  'label.bucket-view-back-button-label': '戻る',
  'label.bucket-view-continue-button-label': '続ける',
  'label.bucket-view-begin-button-label': '抽出を開始',
  'label.extraction-view-heading': 'データを抽出しています',
  'label.extraction-view-description':
    'しばらく時間がかかることがあります。いつでも一時停止またはキャンセルできます。',
  'label.extraction-view-back-button-label': '戻る',
  'label.extraction-view-continue-button-label': '続ける',
  'label.extraction-view-restart-button-label': 'やり直す',
  'label.extraction-view-start-button-label': '開始',
  'label.extraction-view-cancel-button-label': 'キャンセル',
  'label.extraction-view-pause-button-label': '一時停止',
  'label.results-view-heading': 'データを確認',
  'label.results-view-description': '抽出された値を確認し、誤りを修正してから送信してください。',
  'label.results-view-back-button-label': '戻る',
  'label.results-view-submit-button-label': '送信',
  'error.network': 'サービスに接続できませんでした。接続を確認して、もう一度お試しください。',
  'error.not-found': 'お探しのものが見つかりませんでした。削除された可能性があります。',
  'error.too-large': 'ファイルが大きすぎます。',
  'error.server': 'サービスで問題が発生しました。しばらくしてからもう一度お試しください。',
  'error.refused': str`サービスがリクエストを拒否しました（HTTP ${0}）。`,
  'error.unexpected-answer':
    'サービスから予期しない応答がありました。しばらくしてからもう一度お試しください。',
  'error.session-ended':
    'セッションが終了したため、この操作を完了できませんでした。これまでに入力した内容は保存されています。続けるには新しいリンクを依頼してください。',
};
