import { randomUUID } from "node:crypto";

/** One pre-filled playground tab: a document of named operations and the variables they use. */
export interface PlaygroundTab {
  query: string;
  variables: string;
}

const START = `# The API key above goes with every request (and over WebSocket for subscriptions).
# Run an operation with the play button; with several, pick one by name.
query Viewer {
  viewer { kind keyId tenant { id name environment defaultCurrency } }
}

query Airports {
  locations(query: "lon", limit: 5) { iataCode name cityName }
}
`;

const BOOKING = `# From a search to a ticketed order: run these in order, copying ids into the variables.
# 1. Search: copy one offer's id into "offerId".
mutation SearchFlights($departureDate: LocalDate!) {
  searchFlights(input: {
    slices: [{ origin: "LHR", destination: "JFK", departureDate: $departureDate }]
    passengers: [{ type: ADULT, id: "p1" }], cabinClass: ECONOMY, maxConnections: 1
  }) {
    offerRequestId
    offers { id totalAmount totalCurrency expiresAt owner { name } slices { duration segments { origin { iataCode } destination { iataCode } departingAt } } }
  }
}

# 2. Book it: a PENDING order holding the seats; copy its id into "orderId".
#    The same idempotencyKey with the same input returns the same order.
mutation CreateOrder($offerId: ID!, $idempotencyKey: String!) {
  createOrder(idempotencyKey: $idempotencyKey, input: {
    offerId: $offerId
    passengers: [{ id: "p1", title: MS, givenName: "Ada", familyName: "Lovelace", gender: F, bornOn: "1985-04-12",
                   email: "ada@example.com", phoneNumber: "+442080160508",
                   identityDocuments: [{ type: PASSPORT, number: "P12345678", issuingCountryCode: "GB", expiresOn: "2036-01-01" }] }]
  }) { id status bookingReference totalAmount totalCurrency }
}

# 3. Ticket it: the wallet is debited and the order goes PROCESSING, then TICKETED or FAILED.
mutation TicketOrder($orderId: ID!, $ticketIdempotencyKey: String!) {
  ticketOrder(orderId: $orderId, idempotencyKey: $ticketIdempotencyKey) { id status }
}

# 4. Read the outcome (or follow it live in the next tab) and what it cost.
query Order($orderId: ID!) {
  order(id: $orderId) { status failureReason documents { uniqueIdentifier passengerId } totalAmount totalCurrency }
}

query Wallet {
  wallet { balance currency transactions(first: 5) { nodes { type amount balanceAfter orderId } } }
}
`;

const SUBSCRIPTIONS = `# Over WebSocket (graphql-ws) with the key above. Start one, then book or ticket an order
# (in the previous tab, or through REST): each change appears on the right.
subscription OrderStatus($orderId: ID!) {
  orderStatusChanged(orderId: $orderId) { id status failureReason documents { uniqueIdentifier } }
}

subscription OrderEvents {
  orderEvents { id type createdAt order { id status failureReason } }
}
`;

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The variables as GraphiQL's variables editor shows them. */
function variablesText(variables: Record<string, string>): string {
  return JSON.stringify(variables, null, 2);
}

/**
 * The tabs a fresh playground opens with (GraphiQL keeps the visitor's own tabs afterwards):
 * who am I and an airport lookup; search → book → ticket → read; and the two subscriptions. The search
 * date is a month after `today`, and the idempotency keys are fresh for each page.
 */
export function playgroundTabs(today: Date): PlaygroundTab[] {
  const departureDate = isoDate(new Date(today.getTime() + 30 * 24 * 3600 * 1000));
  const suffix = randomUUID().slice(0, 8);
  return [
    { query: START, variables: "" },
    {
      query: BOOKING,
      variables: variablesText({
        departureDate,
        offerId: "off_…",
        idempotencyKey: `order-${suffix}`,
        orderId: "ord_…",
        ticketIdempotencyKey: `ticket-${suffix}`,
      }),
    },
    { query: SUBSCRIPTIONS, variables: variablesText({ orderId: "ord_…" }) },
  ];
}
