import { CertificationReview } from './certification-review';

/** /finance/certifications: the administrators' certification review, a page of its own. */
export default function CertificationReviewPage() {
  return (
    <div data-testid="certification-review-page">
      <CertificationReview />
    </div>
  );
}
