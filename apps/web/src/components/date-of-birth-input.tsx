import '@mantine/dates/styles.css';
import { DateInput } from '@mantine/dates';
import { dobLimits, dobTextError, parseDob } from './date-of-birth';

/** A date of birth as the form holds it. */
export interface DobValue {
  /** YYYY-MM-DD, or '' while not picked. */
  dob: string;
  /** What the parent typed when it is not a date we accept; the checkout rules then call it invalid. */
  dobText: string;
}

interface DateOfBirthInputProps extends DobValue {
  onChange: (value: DobValue) => void;
  label?: string;
  /** A message from the form's own check, shown when the typed text itself is fine. */
  error?: string;
}

/**
 * The no-future date of birth picker of the checkouts (SPEC.md point 9): DD/MM/YYYY, today back to
 * 21 years ago, typing allowed. Text that is not such a date is kept in `dobText` rather than
 * dropped, so the parent is told instead of the field silently emptying.
 */
export function DateOfBirthInput({
  dob,
  dobText,
  onChange,
  label = 'Date of birth',
  error,
}: DateOfBirthInputProps) {
  const limits = dobLimits();
  return (
    <DateInput
      label={label}
      placeholder="DD/MM/YYYY"
      valueFormat="DD/MM/YYYY"
      dateParser={(text) => parseDob(text, limits)}
      minDate={limits.min}
      maxDate={limits.max}
      defaultLevel="decade"
      value={dob || null}
      onChange={(value) => onChange({ dob: value ?? '', dobText: '' })}
      onBlur={(event) => {
        const text = event.currentTarget.value.trim();
        const parsed = text ? parseDob(text, limits) : null;
        onChange({ dob: parsed ?? (text ? '' : dob), dobText: text && !parsed ? text : '' });
      }}
      fixOnBlur={false}
      error={dobText ? dobTextError(dobText, limits) : error}
      popoverProps={{ withinPortal: true }}
    />
  );
}
