/**
 * The Arabic texts the hosted page shows before the introduction (the app around the
 * views, its errors, and the extractor's labels: ids app., error., label.), loaded with the
 * locale. The rest are in ../later/ar.ts; ../ar.ts is the whole catalogue.
 */
import { str, type TemplateMap } from '@lit/localize';

export const templates: TemplateMap = {
  'app.view-load-error':
    'تعذّر تحميل هذا الجزء من الصفحة. يُرجى التحقق من الاتصال والمحاولة مرة أخرى.',
  'app.loading': 'جارٍ التحميل…',
  'app.load-error-title': 'تعذّر فتح هذه الصفحة',
  'app.try-again': 'إعادة المحاولة',
  'app.step-count': str`الخطوة ${0} من ${1}`,
  'app.step-introduction': 'البداية',
  'app.step-bucket': 'الرفع',
  'app.step-extraction': 'الاستخراج',
  'app.step-results': 'المراجعة',
  'app.missing-session': 'تحتاج هذه الصفحة إلى جلسة تضمين. يُرجى فتح الرابط الذي تلقيته مرة أخرى.',
  'app.session-invalid':
    'انتهت هذه الجلسة أو أنها غير صالحة. اطلب رابطًا جديدًا ممن أرسل إليك هذا الرابط.',
  'app.extractor-gone': 'أداة الاستخراج الخاصة بهذه الجلسة لم تعد موجودة.',
  'label.page-title': 'استخراج بيانات المستندات',
  'label.introduction-view-heading': 'استخرج البيانات من مستنداتك',
  'label.introduction-view-description': 'ارفع مستنداتك وسنقرأ البيانات منها لتتمكن من مراجعتها.',
  'label.introduction-view-next-button-label': 'ابدأ',
  'label.bucket-view-heading': 'ارفع مستنداتك',
  'label.bucket-view-description': 'أضف الملفات التي تريد استخراج البيانات منها.',
  'label.bucket-view-back-button-label': 'رجوع',
  'label.bucket-view-continue-button-label': 'متابعة',
  'label.bucket-view-begin-button-label': 'بدء الاستخراج',
  'label.extraction-view-heading': 'جارٍ استخراج بياناتك',
  'label.extraction-view-description':
    'قد يستغرق ذلك بعض الوقت. يمكنك الإيقاف المؤقت أو الإلغاء في أي وقت.',
  'label.extraction-view-back-button-label': 'رجوع',
  'label.extraction-view-continue-button-label': 'متابعة',
  'label.extraction-view-restart-button-label': 'البدء من جديد',
  'label.extraction-view-start-button-label': 'بدء',
  'label.extraction-view-cancel-button-label': 'إلغاء',
  'label.extraction-view-pause-button-label': 'إيقاف مؤقت',
  'label.results-view-heading': 'راجع بياناتك',
  'label.results-view-description': 'راجع القيم المستخرجة، وصحّح أي خطأ، ثم أرسلها.',
  'label.results-view-back-button-label': 'رجوع',
  'label.results-view-submit-button-label': 'إرسال',
  'error.network': 'تعذّر الوصول إلى الخدمة. يُرجى التحقق من الاتصال والمحاولة مرة أخرى.',
  'error.not-found': 'تعذّر العثور على ما تبحث عنه. ربما تمت إزالته.',
  'error.too-large': 'الملف كبير جدًا.',
  'error.server': 'واجهت الخدمة مشكلة. يُرجى المحاولة مرة أخرى بعد قليل.',
  'error.refused': str`رفضت الخدمة الطلب (HTTP ${0}).`,
  'error.unexpected-answer': 'أرسلت الخدمة ردًا غير متوقع. يُرجى المحاولة مرة أخرى بعد قليل.',
  'error.session-ended':
    'انتهت جلستك، لذا تعذّر تنفيذ ذلك. ما أدخلته من قبل محفوظ: اطلب رابطًا جديدًا للمتابعة.',
};
