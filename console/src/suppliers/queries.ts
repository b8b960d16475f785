import { graphql } from "../generated";

/** Every supplier's health over the last 5 minutes, every process's calls together (owner only). */
export const SuppliersQuery = graphql(`
  query ConsoleSuppliers {
    suppliers {
      id
      name
      status
      circuit
      latencyMs {
        p50
        p99
      }
      errorRate
      calls
    }
  }
`);
