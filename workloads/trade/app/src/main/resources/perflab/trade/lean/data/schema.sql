-- The brokerage's tables: DayTrader's columns and indexes (its tables end in EJB; these do not, and its ORDEREJB
-- is `orders` because ORDER is reserved). Portable SQL: runs unchanged on H2 2.x and PostgreSQL 15.
-- Like DayTrader's DDL, no foreign keys: the links are columns plus indexes, and the audit checks them.
-- Statements end with a semicolon at the end of a line; lines starting with -- are comments.

CREATE TABLE IF NOT EXISTS accountprofile (
    userid      VARCHAR(250) NOT NULL,
    -- never the password: a salted PBKDF2 hash (see Passwords)
    passwd      VARCHAR(250),
    fullname    VARCHAR(250),
    address     VARCHAR(250),
    email       VARCHAR(250),
    creditcard  VARCHAR(250),
    CONSTRAINT pk_accountprofile PRIMARY KEY (userid)
);

CREATE TABLE IF NOT EXISTS account (
    accountid       INTEGER NOT NULL,
    creationdate    TIMESTAMP,
    openbalance     DECIMAL(14,2),
    logoutcount     INTEGER NOT NULL,
    balance         DECIMAL(14,2),
    lastlogin       TIMESTAMP,
    logincount      INTEGER NOT NULL,
    profile_userid  VARCHAR(250),
    CONSTRAINT pk_account PRIMARY KEY (accountid)
);

CREATE TABLE IF NOT EXISTS holding (
    holdingid          INTEGER NOT NULL,
    purchaseprice      DECIMAL(14,2),
    quantity           DOUBLE PRECISION NOT NULL,
    -- 1970-01-01 00:00 marks a holding whose sell is in flight (DayTrader's marker; the table has no status)
    purchasedate       TIMESTAMP,
    account_accountid  INTEGER,
    quote_symbol       VARCHAR(250),
    CONSTRAINT pk_holding PRIMARY KEY (holdingid)
);

CREATE TABLE IF NOT EXISTS orders (
    orderid            INTEGER NOT NULL,
    ordertype          VARCHAR(250),
    orderstatus        VARCHAR(250),
    opendate           TIMESTAMP,
    completiondate     TIMESTAMP,
    quantity           DOUBLE PRECISION NOT NULL,
    price              DECIMAL(14,2),
    orderfee           DECIMAL(14,2),
    account_accountid  INTEGER,
    quote_symbol       VARCHAR(250),
    -- NULL once the holding is sold
    holding_holdingid  INTEGER,
    CONSTRAINT pk_orders PRIMARY KEY (orderid)
);

CREATE TABLE IF NOT EXISTS quote (
    symbol       VARCHAR(250) NOT NULL,
    companyname  VARCHAR(250),
    volume       DOUBLE PRECISION NOT NULL,
    price        DECIMAL(14,2),
    open1        DECIMAL(14,2),
    low          DECIMAL(14,2),
    high         DECIMAL(14,2),
    change1      DOUBLE PRECISION NOT NULL,
    CONSTRAINT pk_quote PRIMARY KEY (symbol)
);

CREATE TABLE IF NOT EXISTS keygen (
    keyname  VARCHAR(250) NOT NULL,
    keyval   INTEGER NOT NULL,
    CONSTRAINT pk_keygen PRIMARY KEY (keyname)
);

CREATE INDEX IF NOT EXISTS account_userid ON account (profile_userid);
CREATE INDEX IF NOT EXISTS holding_accountid ON holding (account_accountid);
CREATE INDEX IF NOT EXISTS order_holdingid ON orders (holding_holdingid);
-- DayTrader also has order_accountid on (account_accountid) alone. Not here: closed_orders serves a lookup by
-- account as well, and with both, H2 planned every page's closed-order query (takeClosed) on order_accountid
-- whenever its statistics saw one order status (a fresh population's), then read each of the account's orders,
-- its whole history, to keep the few closed ones: CPU per page rose as a run's orders piled up (issue 36).
CREATE INDEX IF NOT EXISTS closed_orders ON orders (account_accountid, orderstatus);
-- and a database made by an earlier perflab (a --db-url of the user's) loses it too
DROP INDEX IF EXISTS order_accountid;

-- the key generator's rows, once; kept across populations (see KeyBlocks)
INSERT INTO keygen (keyname, keyval) SELECT 'account', 0 WHERE NOT EXISTS (SELECT 1 FROM keygen WHERE keyname = 'account');
INSERT INTO keygen (keyname, keyval) SELECT 'holding', 0 WHERE NOT EXISTS (SELECT 1 FROM keygen WHERE keyname = 'holding');
INSERT INTO keygen (keyname, keyval) SELECT 'order', 0 WHERE NOT EXISTS (SELECT 1 FROM keygen WHERE keyname = 'order');
