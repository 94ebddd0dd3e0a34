import NProgress from 'nprogress';

/** The route-change progress bar (§9: minimum 0.08, speed 200 ms). */
NProgress.configure({ minimum: 0.08, speed: 200, showSpinner: false });

export const progress = {
  start: () => NProgress.start(),
  done: () => NProgress.done(),
};
