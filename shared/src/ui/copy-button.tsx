import { useTranslation } from 'react-i18next';
import { Tooltip } from './tooltip.js';
import { useCopy } from './use-copy.js';

export interface CopyButtonProps {
  text: string;
  /** Accessible name; defaults to "Copy". */
  label?: string;
}

export function CopyButton({ text, label }: CopyButtonProps) {
  const { t } = useTranslation();
  const { copied, copy } = useCopy();
  return (
    <Tooltip text={copied ? t('common.copied') : (label ?? t('common.copy'))} open={copied}>
      <button type="button" className="sch-button sch-button--ghost sch-copy-button" onClick={() => void copy(text)}>
        {label ?? t('common.copy')}
      </button>
    </Tooltip>
  );
}

export interface CodeBlockProps {
  code: string;
  language?: string;
}

/** A code sample with a copy control (spec §1: code blocks can be copied). */
export function CodeBlock({ code, language }: CodeBlockProps) {
  const { t } = useTranslation();
  return (
    <div className="sch-code-block" data-language={language}>
      <CopyButton text={code} label={t('common.copyCode')} />
      {/* Focusable: a keyboard scrolls a long line sideways. */}
      <pre tabIndex={0}><code>{code}</code></pre>
    </div>
  );
}
