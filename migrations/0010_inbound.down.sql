DROP TABLE IF EXISTS mail_bounces;
DROP TABLE IF EXISTS inbound_mail;
