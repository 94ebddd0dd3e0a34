/** Step-up for money actions (administrators with two-factor on). */
export default {
  'stepUp.title': 'Confirm money actions',
  'stepUp.prompt':
    'Two-factor is on for your account. Enter the 6-digit code from your authenticator (or an 8-digit backup code) to confirm money actions; for the next 5 minutes they need no code.',
  'stepUp.confirm': 'Confirm and continue',
};
