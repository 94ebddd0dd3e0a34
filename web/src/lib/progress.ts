import NProgress from 'nprogress';

/** The route-change progress bar (minimum 0.08, speed 200 ms). */
// The template without nprogress's role="bar", which is no ARIA role (assistive technology is
// handed an invalid role); the bar is decoration, the pages' own loading states say what loads.
NProgress.configure({
  minimum: 0.08,
  speed: 200,
  showSpinner: false,
  template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>',
  barSelector: '.bar',
});

export const progress = {
  start: () => NProgress.start(),
  done: () => NProgress.done(),
};
