/**
 * What installations stored before migration checksums ignored comments. Until then the checksum
 * covered the whole file, so rewording a comment in an applied migration made every existing database
 * refuse to start. Each entry is the whole-file checksum an installation may hold for a migration and
 * the statements checksum of that same text: the runner accepts the old value only while the file's
 * statements are still exactly those (a test checks each entry against the files), and then stores
 * the new checksum. New migrations never need an entry here.
 */
export const wholeFileChecksums: Readonly<Record<number, { file: string; statements: string }>> = {
  // 0001_accounts.sql
  1: {
    file: '01ca1044826576f40970ffbcf502b52d9df37ea62d41f26fb0b1728f356bd8c4',
    statements: '4f1dff6c494ebdc7dbe5fbac96b8b223f2f35cfc7fa7ee0d3e5c0c5e3d8f1f3a',
  },
  // 0002_incident_core.sql
  2: {
    file: '48d76526fb8b8465c2ed785afba934595ce6b5418b81834371f6295bea0bb0bd',
    statements: '7e0f4fe51a359b6fa80f1c312cef1c3634a74565df8a146c9c2d784ceb4f1879',
  },
  // 0003_oncall.sql
  3: {
    file: 'f864822097bea518a450056c4d2cf8569393739d3484b40213aefb1a7caafd20',
    statements: '0c2559946f8b004b2aeb5e21711c8cb55981a13ccff7da6b6dee436490b02619',
  },
  // 0004_alert_grouping.sql
  4: {
    file: 'e5ab98e8595b0bb2c5ba5b9ffacf6901028a1ea79fc4c5e2b4cb3bf4768390f8',
    statements: 'bdfe529d3a0ae83fb347c340641e189c637e7be96f658fd2262db2785ac0c541',
  },
  // 0005_background_work.sql
  5: {
    file: '3f78aff8aa2cfe9f002cae7f5640c22afee1825c5b8fa77e50bd65812c46f26d',
    statements: '42c572c22f31c635b1de088c003327eccbb269534c20556bce1ddb70578911f2',
  },
  // 0006_setup_tokens.sql
  6: {
    file: '72fc4288a546ed20a143cc31e8eb7d1664c1fc45f0d0cc78fdd8ba691bfc92d7',
    statements: 'e9ac41094ccd1dfb31cb93cc22b44a8ac382128380b8ef272a0bec7504ccb587',
  },
  // 0007_chat_outbound.sql
  7: {
    file: '37e76d2a27f6f75399f8f4f44fd624d00f0d5df2354614eb0fe00c1e3c4cf338',
    statements: '5d4d8839f8d2c59f574b1aa59e8c49b6cc55466c5dc55b348288fd8871266537',
  },
  // 0008_chat_events.sql
  8: {
    file: 'fc6c264d3be40ebf773e3f3e67c5a46fa39ec625f086e67287d1b22e738a8460',
    statements: '5b6fae3ec88c04d1dc940c4ef9f620e3f7add8cdaca32994c04099d613e1ce69',
  },
  // 0009_ai.sql
  9: {
    file: '0b487433196020c09b2cd31b3aa932a24e83540bf5a775a6299240b8aedd95f8',
    statements: 'cb1c7fe4ebb2a63ba88dea8c6f0542731b8b706f2dfc38f09b8a8888e57596ab',
  },
  // 0010_chat_channel_creating.sql
  10: {
    file: 'eb701c4729e5a554dd6249ad92557c4f8117d7cc99f8b3fa09c39864dbf9158b',
    statements: '2fba23e242c1785ae13155fc3ff262eeb5adde4dccdbceb01243990c3ecb9cb5',
  },
};
