import { defineConfig } from 'tsup';
import { appBundle } from '../../tsup.config.base';

export default defineConfig(appBundle({ servesApiReference: true }));
