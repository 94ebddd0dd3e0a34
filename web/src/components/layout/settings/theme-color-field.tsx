import { useTranslation } from 'react-i18next';

export const THEME_PRESETS = ['#165DFF', '#722ED1', '#F5319D', '#F53F3F', '#FF7D00', '#00B42A', '#14C9C9', '#1D2129'];

export interface ThemeColorFieldProps {
  value: string;
  onChange: (color: string) => void;
}

/** Preset swatches plus the browser's colour picker for any other colour. */
export function ThemeColorField({ value, onChange }: ThemeColorFieldProps) {
  const { t } = useTranslation();
  return (
    <div className="theme-color-field" data-testid="setting-theme-color">
      {THEME_PRESETS.map((color) => (
        <button
          key={color}
          type="button"
          className="theme-color-field__swatch"
          aria-label={color}
          aria-pressed={value.toUpperCase() === color}
          data-testid={`setting-theme-color-${color.slice(1)}`}
          style={{ background: color }}
          onClick={() => onChange(color)}
        />
      ))}
      <input
        type="color"
        className="theme-color-field__picker"
        aria-label={t('settings.themeColor')}
        value={value.toLowerCase()}
        onChange={(event) => onChange(event.target.value.toUpperCase())}
        data-testid="setting-theme-color-input"
      />
    </div>
  );
}
