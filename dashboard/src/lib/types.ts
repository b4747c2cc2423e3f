// The account API's records as the app reads them (docs/api.md): only the fields it uses.

export type Status = "open" | "resolved" | "pending" | "snoozed";
export type Priority = "urgent" | "high" | "medium" | "low" | null;

export type Attachment = {
  id: number;
  file_type: string;
  data_url: string;
  thumb_url: string;
  file_size: number;
  fallback_title: string | null;
};

export type Sender = { id: number; name: string; type: "user" | "contact" | "agent_bot" };

export type Message = {
  id: number;
  content: string | null;
  conversation_id: number;
  /** 0 incoming, 1 outgoing, 2 activity, 3 template */
  message_type: number;
  seq: number;
  created_at: number;
  private: boolean;
  status: string;
  content_type: string;
  echo_id: string | null;
  sender?: Sender | null;
  attachments?: Attachment[];
};

export type Contact = {
  id: number;
  name: string | null;
  email: string | null;
  phone_number: string | null;
  identifier?: string | null;
  thumbnail?: string;
  additional_attributes?: Record<string, unknown>;
  custom_attributes?: Record<string, unknown>;
};

export type Agent = {
  id: number;
  name: string;
  available_name?: string;
  email?: string;
  role?: string;
  availability_status?: string;
  confirmed?: boolean;
};

export type Team = { id: number; name: string; description?: string | null };
export type Label = { id: number; title: string; color: string; description?: string | null };

export type Inbox = {
  id: number;
  name: string;
  channel_type: string;
  inbox_identifier?: string;
  website_url?: string | null;
  widget_color?: string;
  welcome_title?: string | null;
  welcome_tagline?: string | null;
  greeting_message?: string | null;
  greeting_enabled?: boolean;
};

export type Conversation = {
  id: number;
  inbox_id: number;
  status: Status;
  priority: Priority;
  labels: string[];
  muted: boolean;
  snoozed_until: number | null;
  created_at: number;
  updated_at: number;
  last_activity_at: number;
  unread_count: number;
  contact_last_seen_at: number;
  contact_last_seen_seq?: number | null;
  last_non_activity_message: Message | null;
  custom_attributes?: Record<string, unknown>;
  meta: {
    sender: Contact;
    assignee: Agent | null;
    team: Team | null;
    channel?: string;
  };
};

/** The account feed's conversation summary (docs/realtime.md, "Account feed"). */
export type Summary = {
  id: number;
  inbox_id: number;
  contact_id: number;
  status: Status;
  priority: Priority;
  assignee_id: number | null;
  team_id: number | null;
  snoozed_until: number | null;
  muted: boolean;
  last_activity_at: number;
  updated_at: number;
};

/** The account feed's `message.created`: the summary as the message left it, and the message. */
export type Activity = Summary & {
  unread_count: number;
  last_non_activity_message: Message;
};

export type Counts = {
  mine_count: number;
  unassigned_count: number;
  assigned_count: number;
  all_count: number;
};

export type Profile = {
  id: number;
  name: string;
  display_name?: string | null;
  email: string;
  access_token?: string;
  accounts: {
    id: number;
    name: string;
    role: string;
    /** What the agent chose in that account. */
    availability?: Availability;
    /** What others see: the choice, or offline when online was chosen but no socket is open. */
    availability_status?: Availability;
    auto_offline?: boolean;
  }[];
};

export type Availability = "online" | "busy" | "offline";

/** A server frame of either socket (docs/realtime.md, "Frames"). */
export type Frame = { v?: number; event: string; seq: number; data: Record<string, unknown> };
