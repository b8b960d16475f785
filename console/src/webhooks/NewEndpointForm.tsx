import { useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { fieldErrors } from "../api/errors";
import { newIdempotencyKey } from "../api/idempotency";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { ALL_EVENTS, ORDER_EVENT_TYPES } from "./event-types";
import { CreateWebhookEndpointMutation } from "./queries";

interface NewEndpointFormProps {
  /** Called with the new endpoint's id and its secret, shown this once. */
  onCreated(endpoint: { id: string; secret: string }): void;
}

/** A new endpoint: where it is, what it is for, and which events it takes (all, or those ticked). */
export function NewEndpointForm({ onCreated }: NewEndpointFormProps) {
  const [creation, create] = useMutation(CreateWebhookEndpointMutation);
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [allEvents, setAllEvents] = useState(true);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [action, setAction] = useState(() => newIdempotencyKey("create-endpoint"));
  const toggle = (type: string) => setChosen((current) => (current.has(type) ? new Set([...current].filter((item) => item !== type)) : new Set([...current, type])));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = { url: url.trim(), description: description.trim() || null, enabledEvents: allEvents ? [ALL_EVENTS] : ORDER_EVENT_TYPES.filter((type) => chosen.has(type)) };
    const result = await create({ input, idempotencyKey: action });
    const made = result.data?.createWebhookEndpoint;
    if (made?.secret) {
      onCreated({ id: made.id, secret: made.secret });
      setUrl("");
      setDescription("");
      setAllEvents(true);
      setChosen(new Set());
      setAction(newIdempotencyKey("create-endpoint"));
    }
  };
  const errors = fieldErrors(creation.error);
  return (
    <form onSubmit={submit} className="grid-form" aria-label="New endpoint">
      <Field label="Endpoint URL" error={errors.get("url")} className="full-row">
        <input name="endpointUrl" type="url" required value={url} onChange={(event) => setUrl(event.target.value)} />
      </Field>
      <Field label="Description" error={errors.get("description")} hint="What receives it, e.g. Fulfilment." className="full-row">
        <input name="endpointDescription" value={description} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <fieldset className="permissions">
        <legend>Events</legend>
        <label className="check">
          <input type="checkbox" checked={allEvents} onChange={(event) => setAllEvents(event.target.checked)} /> All events, those added later included
        </label>
        {allEvents
          ? null
          : ORDER_EVENT_TYPES.map((type) => (
              <label className="check" key={type}>
                <input type="checkbox" checked={chosen.has(type)} onChange={() => toggle(type)} /> <code>{type}</code>
              </label>
            ))}
        {errors.get("enabledEvents") ?? errors.get("enabled_events") ? <p className="field-error">{errors.get("enabledEvents") ?? errors.get("enabled_events")}</p> : null}
      </fieldset>
      <ErrorNote error={creation.error} fields={["url", "description", "enabledEvents", "enabled_events"]} />
      <div className="actions">
        <button type="submit" className="primary" disabled={creation.fetching || (!allEvents && chosen.size === 0)}>
          Create endpoint
        </button>
      </div>
    </form>
  );
}
