// Keeps a destroyed client's gateway shard from coming back. @discordjs/ws reconnects a dropped shard after
// a half-second pause; a client destroyed during that pause finds the shard idle, leaves it alone, and the
// shard then opens a new socket (and keeps retrying through an outage) with nobody left to close it.
import { type IShardingStrategy, SimpleShardingStrategy, type WebSocketOptions } from 'discord.js'

/** @discordjs/ws's manager; discord.js exports a class of its own under the same name. */
type ShardManager = Parameters<NonNullable<WebSocketOptions['buildStrategy']>>[0]

/**
 * The sharding strategy discord.js uses by default, but every (re)connect first asks for the session,
 * and once `finished()` the answer never comes: the shard waits there, holding no socket and no timer.
 */
export function stoppableShards(finished: () => boolean): (manager: ShardManager) => IShardingStrategy {
  return (manager) => {
    const options = manager.options
    const retrieve = options.retrieveSessionInfo.bind(options)
    options.retrieveSessionInfo = (shardId) => (finished() ? new Promise(() => {}) : retrieve(shardId))
    return new SimpleShardingStrategy(manager)
  }
}
