// The Store's peers area: the names sessions answer to, the rooms they join, and what could not be
// delivered to anyone.
export interface DeadLetter {
  id: number
  /** `peer` (a name nobody holds) or `webhook` (a receiver that kept failing). */
  kind: string
  target: string
  payload: Record<string, unknown>
  reason: string
  createdAt: number
}

export interface PeerStore {
  /** The alias now points at `name`: the last peer to claim it wins. */
  setAlias(alias: string, name: string): Promise<void>
  resolveAlias(alias: string): Promise<string | null>
  aliasesOf(name: string): Promise<string[]>
  joinRoom(room: string, member: string): Promise<void>
  leaveRoom(room: string, member: string): Promise<void>
  roomMembers(room: string): Promise<string[]>
  roomsOf(member: string): Promise<string[]>
  addDeadLetter(input: Omit<DeadLetter, 'id' | 'createdAt'>): Promise<DeadLetter>
  listDeadLetters(kind?: string): Promise<DeadLetter[]>
}
