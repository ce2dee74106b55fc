// The one place that asks for notification permission, and only when the button is pressed.
import { useState } from 'react'
import { notificationsSupported } from './notifications.ts'

export function EnableNotifications() {
  const [permission, setPermission] = useState(() =>
    notificationsSupported() ? Notification.permission : null,
  )
  if (permission === null) return null
  if (permission === 'granted')
    return <p className="muted">Notifications are on for new decisions and finished turns.</p>
  if (permission === 'denied')
    return <p className="muted">Notifications are blocked; allow them in the browser's site settings.</p>
  return (
    <button
      type="button"
      onClick={async () => {
        setPermission(await Notification.requestPermission())
      }}
    >
      Enable notifications
    </button>
  )
}
