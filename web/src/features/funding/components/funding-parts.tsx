import { Button, Image, Modal, Skeleton, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FundingItem, type FundingStatus, useFundingProof } from '../api/funding';

const STATUS_COLOURS: Record<FundingStatus, string> = {
  pending: 'gold',
  approved: 'green',
  rejected: 'red',
  withdrawn: 'default',
};

export function FundingStatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOURS[status as FundingStatus] ?? 'default'} data-testid="funding-status">
      {t(`funding.status.${status}`)}
    </Tag>
  );
}

/** The proof image through an object URL (the request carries the session), made and revoked with the blob. */
function ProofImage({ request, admin }: { request: FundingItem; admin: boolean }) {
  const { t } = useTranslation();
  const proof = useFundingProof(request.id, admin, true);
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!proof.data) return;
    const objectUrl = URL.createObjectURL(proof.data);
    // The object URL is made and revoked with the blob: an effect's job.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [proof.data]);
  return url ? (
    <Image src={url} alt={t('funding.proof.title', { id: request.id })} data-testid="funding-proof-image" />
  ) : (
    <Skeleton.Image active />
  );
}

/** A button that opens the request's proof image in a dialog. */
export function ProofButton({ request, admin }: { request: FundingItem; admin: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" type="link" onClick={() => setOpen(true)} data-testid="funding-view-proof">
        {t('funding.viewProof')}
      </Button>
      <Modal
        open={open}
        title={t('funding.proof.title', { id: request.id })}
        footer={null}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        {open ? <ProofImage request={request} admin={admin} /> : null}
      </Modal>
    </>
  );
}
