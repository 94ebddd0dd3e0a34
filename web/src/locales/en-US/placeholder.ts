export default {
  'placeholder.title': 'Feature in preparation',
  'placeholder.description': '"{{page}}" is being prepared and will arrive in a later release.',
};
