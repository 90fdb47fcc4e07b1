// The twiml modules only: the package's root loads Twilio's whole REST client, megabytes of bundle.
import MessagingResponse from 'twilio/lib/twiml/MessagingResponse.js';
import VoiceResponse from 'twilio/lib/twiml/VoiceResponse.js';

/**
 * What a paging call says and what a text reply reads (docs/paging-twilio-push.md#voice). The `twilio`
 * package writes the TwiML, so every title is escaped as XML needs.
 */

export interface PagedIncident {
  number: number;
  title: string;
  severity: string;
  status: string;
}

// A person woken at night needs the number twice and time to reach the phone's keypad.
const GATHER_TIMEOUT_SECONDS = 10;

/** "Incident 42, severity critical: Checkout is down." */
function describe(incident: PagedIncident): string {
  return `Incident ${incident.number}, severity ${incident.severity}: ${incident.title}.`;
}

/** The incident read aloud, then one key to acknowledge; a page no longer triggered is only told. */
export function pageScript(incident: PagedIncident, personName: string, gatherUrl: string): string {
  const response = new VoiceResponse();
  response.say(`Hello ${personName}. This is Firebreak. ${describe(incident)}`);
  if (incident.status !== 'triggered') {
    response.say(`It is already ${incident.status}. Nothing to do. Goodbye.`);
    response.hangup();
    return response.toString();
  }
  askForKey(response, incident, gatherUrl);
  response.say('No key was pressed. The page continues. Goodbye.');
  return response.toString();
}

function askForKey(response: VoiceResponse, incident: PagedIncident, gatherUrl: string) {
  const gather = response.gather({
    numDigits: 1,
    action: gatherUrl,
    method: 'POST',
    timeout: GATHER_TIMEOUT_SECONDS,
  });
  gather.say(`Press 1 to acknowledge incident ${incident.number}.`);
}

export function acknowledgedScript(incident: PagedIncident): string {
  const response = new VoiceResponse();
  response.say(`Incident ${incident.number} is acknowledged. Escalation stopped. Goodbye.`);
  response.hangup();
  return response.toString();
}

/** Another key than 1: say so and listen again. */
export function askAgainScript(incident: PagedIncident, gatherUrl: string, pressed: string): string {
  const response = new VoiceResponse();
  response.say(pressed ? `You pressed ${pressed.split('').join(' ')}.` : 'No key was pressed.');
  askForKey(response, incident, gatherUrl);
  response.say('No key was pressed. Goodbye.');
  return response.toString();
}

/** Anything that ends the call with one sentence: a stale link, a refusal, an outage. */
export function sayAndHangUp(sentence: string): string {
  const response = new VoiceResponse();
  response.say(sentence);
  response.hangup();
  return response.toString();
}

/** An SMS reply; no reply at all is an empty `<Response/>` (Twilio then sends nothing). */
export function smsReply(text: string | undefined): string {
  const response = new MessagingResponse();
  if (text) response.message(text);
  return response.toString();
}
