import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { isMissingEndpoint } from '../../lib/missing';
import { useMe } from '../../lib/session';
import { CalendarFeedSection } from './CalendarFeedSection';
import { ContactMethodsSection } from './ContactMethodsSection';
import { MyShifts } from './MyShifts';
import { NotificationRulesSection } from './NotificationRulesSection';
import { configuredMethods } from './rules-form';
import { ShiftNoticesSection } from './ShiftNoticesSection';

/** Everyone's own page: when they are on call, and how they want to be reached when paged. */
export function MyOnCallPage() {
  const me = useMe();
  const paging = useQuery({
    queryKey: ['paging-methods'],
    queryFn: api.pagingMethods,
    retry: (count, error) => !isMissingEndpoint(error) && count < 2,
  });
  const methods = configuredMethods(paging.data);
  if (me.data && !me.data.user) {
    return (
      <>
        <h1>My on-call</h1>
        <p className="card empty">This page is for a signed-in person; an API key has no shifts or rules.</p>
      </>
    );
  }
  return (
    <>
      <div className="page-head">
        <div>
          <h1>My on-call</h1>
          <p className="subtle small">Your next shifts, your calendar, and how you are reached when paged.</p>
        </div>
      </div>
      <div className="stack">
        <MyShifts />
        <CalendarFeedSection />
        <NotificationRulesSection methods={methods} methodsKnown={paging.isSuccess} />
        <ContactMethodsSection
          methods={methods}
          methodsKnown={paging.isSuccess}
          methodsError={paging.error}
          vapidPublicKey={paging.data?.vapid_public_key ?? null}
        />
        <ShiftNoticesSection />
      </div>
    </>
  );
}
