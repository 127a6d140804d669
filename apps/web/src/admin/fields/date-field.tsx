import '@mantine/dates/styles.css';
import { DateInput, type DateInputProps } from '@mantine/dates';
import { parseDisplayDate } from '../format';

interface DateFieldProps extends Omit<DateInputProps, 'value' | 'onChange'> {
  /** 'YYYY-MM-DD' or null. */
  value: string | null;
  onChange: (value: string | null) => void;
}

/**
 * A date picker showing DD/MM/YYYY (SPEC.md point 9) while the value stays 'YYYY-MM-DD'. Typed
 * dates are read as day/month/year, the Australian way.
 */
export function DateField({ value, onChange, ...props }: DateFieldProps) {
  return (
    <DateInput
      placeholder="DD/MM/YYYY"
      {...props}
      value={value}
      onChange={(next) => onChange(next ? next.slice(0, 10) : null)}
      valueFormat="DD/MM/YYYY"
      dateParser={parseDisplayDate}
      firstDayOfWeek={1}
    />
  );
}
