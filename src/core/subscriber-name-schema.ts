// What a subscriber may be called: letters, digits and . _ : -. Its own file rather than with the rest
// of the hub protocol (which re-exports it) so that the settings table, which every command loads,
// checks a channel's name without building the protocol's schemas.
import * as z from 'zod'

export const subscriberNameSchema = z
  .string()
  .min(1, 'subscriber name must not be empty')
  .max(100, 'subscriber name is longer than 100 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'subscriber name may hold letters, digits and . _ : - only')
