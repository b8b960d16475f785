import { graphql } from "../generated";

export const OrdersQuery = graphql(`
  query ConsoleOrders(
    $first: Int
    $after: String
    $last: Int
    $before: String
    $status: OrderStatus
    $bookingReference: String
    $passengerName: String
    $createdFrom: DateTime
    $createdBefore: DateTime
  ) {
    orders(
      first: $first
      after: $after
      last: $last
      before: $before
      status: $status
      bookingReference: $bookingReference
      passengerName: $passengerName
      createdFrom: $createdFrom
      createdBefore: $createdBefore
    ) {
      totalCount
      nodes {
        id
        status
        bookingReference
        totalAmount
        totalCurrency
        createdAt
        passengers {
          id
          givenName
          familyName
        }
        offer {
          id
          slices {
            id
            departureDate
            origin {
              iataCode
            }
            destination {
              iataCode
            }
          }
        }
      }
      pageInfo {
        ...PageCursors
      }
    }
  }
`);

/** Everything the order page shows of an order; the live subscription asks for the same. */
export const OrderDetailFragment = graphql(`
  fragment OrderDetail on Order {
    id
    status
    bookingReference
    totalAmount
    totalCurrency
    baseAmount
    feeAmount
    taxAmount
    failureReason
    refundInProgress
    cancellationReason
    settlement
    createdAt
    updatedAt
    paymentStatus {
      awaitingPayment
      paymentRequiredBy
      priceGuaranteeExpiresAt
      paidAt
    }
    offer {
      id
      owner {
        name
      }
      conditions {
        ...FareConditions
      }
      slices {
        ...ItinerarySlice
      }
    }
    passengers {
      id
      type
      title
      givenName
      familyName
      bornOn
      gender
      email
      phoneNumber
      identityDocuments {
        type
        number
        issuingCountryCode
        expiresOn
      }
    }
    services {
      id
      type
      quantity
      totalAmount
      totalCurrency
      passengerIds
      segmentIds
      designator
    }
    documents {
      id
      type
      uniqueIdentifier
      passengerId
      url
      issuedAt
    }
  }
`);

export const OrderQuery = graphql(`
  query ConsoleOrder($id: ID!) {
    order(id: $id) {
      ...OrderDetail
    }
  }
`);

export const OrderStatusSubscription = graphql(`
  subscription ConsoleOrderStatus($orderId: ID!) {
    orderStatusChanged(orderId: $orderId) {
      ...OrderDetail
    }
  }
`);

export const OrderEventsQuery = graphql(`
  query ConsoleOrderEvents($id: ID!) {
    order(id: $id) {
      id
      events(first: 100) {
        totalCount
        nodes {
          id
          type
          createdAt
          data
        }
      }
    }
  }
`);

export const PayOrderMutation = graphql(`
  mutation ConsolePayOrder($input: PayOrderInput!, $idempotencyKey: String!) {
    payOrder(input: $input, idempotencyKey: $idempotencyKey) {
      id
      amount
      currency
      order {
        ...OrderDetail
      }
    }
  }
`);

export const QuoteCancellationMutation = graphql(`
  mutation ConsoleQuoteCancellation($orderId: ID!, $idempotencyKey: String) {
    quoteOrderCancellation(orderId: $orderId, idempotencyKey: $idempotencyKey) {
      id
      refundAmount
      refundCurrency
      refundTo
      expiresAt
      confirmedAt
    }
  }
`);

export const ConfirmCancellationMutation = graphql(`
  mutation ConsoleConfirmCancellation($id: ID!, $idempotencyKey: String) {
    confirmOrderCancellation(id: $id, idempotencyKey: $idempotencyKey) {
      id
      refundAmount
      refundCurrency
      confirmedAt
      order {
        ...OrderDetail
      }
    }
  }
`);

export const RequestOrderChangeMutation = graphql(`
  mutation ConsoleRequestOrderChange($input: RequestOrderChangeInput!, $idempotencyKey: String) {
    requestOrderChange(input: $input, idempotencyKey: $idempotencyKey) {
      id
      orderChangeOffers {
        id
        changeTotalAmount
        changeTotalCurrency
        penaltyTotalAmount
        penaltyTotalCurrency
        newTotalAmount
        newTotalCurrency
        expiresAt
        slices {
          add {
            ...ItinerarySlice
          }
        }
      }
    }
  }
`);

export const CreateOrderChangeMutation = graphql(`
  mutation ConsoleCreateOrderChange($offerId: ID!, $idempotencyKey: String) {
    createOrderChange(selectedOrderChangeOffer: $offerId, idempotencyKey: $idempotencyKey) {
      id
      changeTotalAmount
      changeTotalCurrency
      expiresAt
    }
  }
`);

export const ConfirmOrderChangeMutation = graphql(`
  mutation ConsoleConfirmOrderChange($id: ID!, $payment: PaymentInput, $idempotencyKey: String) {
    confirmOrderChange(id: $id, payment: $payment, idempotencyKey: $idempotencyKey) {
      id
      confirmedAt
      order {
        ...OrderDetail
      }
    }
  }
`);
