import { QuestionCircleOutlined } from '@ant-design/icons';
import { Tooltip } from 'antd';
import type { ReactNode } from 'react';

/**
 * A label followed by a question mark whose tooltip says how its figure is counted: the
 * monitor, the channels list and reconciliation explain their shared figures this way. The
 * mark takes keyboard focus, so the definition is reachable without a mouse.
 */
export function DefinitionHint({
  label,
  definition,
  testId,
}: {
  label: ReactNode;
  definition: string;
  testId: string;
}) {
  return (
    <span data-testid={testId}>
      {label}{' '}
      <Tooltip title={definition}>
        <QuestionCircleOutlined
          role="img"
          tabIndex={0}
          aria-label={definition}
          data-testid={`${testId}-hint`}
          style={{ color: 'rgba(0, 0, 0, 0.45)', cursor: 'help' }}
        />
      </Tooltip>
    </span>
  );
}
