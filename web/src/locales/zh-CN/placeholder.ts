export default {
  'placeholder.title': '功能建设中',
  'placeholder.description': '“{{page}}”功能正在建设中，将在后续版本中上线。',
};
