import type { addressTypes } from '../../lib/oncall-types';

/** How the address field of the add-contact form reads for each kind. */
export interface AddressField {
  label: string;
  hint: string;
  inputType: 'email' | 'tel' | 'text';
  inputMode: 'email' | 'tel' | 'numeric' | 'text';
  autoComplete: string;
}

export function addressField(type: (typeof addressTypes)[number]): AddressField {
  switch (type) {
    case 'email':
      return {
        label: 'Address',
        hint: 'name@example.com',
        inputType: 'email',
        inputMode: 'email',
        autoComplete: 'email',
      };
    case 'telegram':
      // Not `numeric`: a group's id starts with a minus, which a numeric keypad may not offer.
      return {
        label: 'Chat id',
        hint: 'a number, e.g. 123456789',
        inputType: 'text',
        inputMode: 'text',
        autoComplete: 'off',
      };
    default:
      return {
        label: 'Phone number',
        hint: 'international, e.g. +4915112345678',
        inputType: 'tel',
        inputMode: 'tel',
        autoComplete: 'tel',
      };
  }
}
