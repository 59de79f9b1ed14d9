<?xml version="1.0" encoding="UTF-8"?>
<!-- transform-schema, request: a partner's FirstNoticeOfLoss to ClaimServices' createClaim. The TrackingRef is
     not mapped: the gateway keeps it in the mediation's context and hands it to schema-response.xsl. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:fn="urn:perflab:partner:fnol" xmlns:cs="urn:perflab:claims:v1"
                xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" exclude-result-prefixes="fn">
  <xsl:output method="xml" encoding="UTF-8" omit-xml-declaration="yes" indent="no"/>

  <xsl:template match="/">
    <soap:Envelope><soap:Body><xsl:apply-templates select="soap:Envelope/soap:Body/fn:FirstNoticeOfLoss"/></soap:Body></soap:Envelope>
  </xsl:template>

  <xsl:template match="fn:FirstNoticeOfLoss">
    <cs:createClaim>
      <cs:requestId><xsl:value-of select="fn:Header/fn:MessageId"/></cs:requestId>
      <cs:channel><xsl:value-of select="concat('partner:', fn:Header/fn:Partner)"/></cs:channel>
      <cs:responseSize><xsl:value-of select="fn:Header/fn:ReplySize"/></cs:responseSize>
      <cs:claim>
        <cs:policyNumber><xsl:value-of select="fn:Policy/@id"/></cs:policyNumber>
        <cs:claimant>
          <cs:name><xsl:value-of select="fn:Driver/@fullName"/></cs:name>
          <cs:phone><xsl:value-of select="fn:Driver/@phone"/></cs:phone>
          <cs:email><xsl:value-of select="fn:Driver/@email"/></cs:email>
        </cs:claimant>
        <cs:vehicle>
          <cs:vin><xsl:value-of select="fn:Car/@vin"/></cs:vin>
          <cs:model><xsl:value-of select="fn:Car/@model"/></cs:model>
          <cs:year><xsl:value-of select="fn:Car/@year"/></cs:year>
        </cs:vehicle>
        <cs:lossDate><xsl:value-of select="fn:Incident/@date"/></cs:lossDate>
        <cs:lines>
          <xsl:for-each select="fn:Damage/fn:Item">
            <cs:line>
              <cs:lineNo><xsl:value-of select="@seq"/></cs:lineNo>
              <cs:partCode><xsl:value-of select="@part"/></cs:partCode>
              <cs:description><xsl:value-of select="."/></cs:description>
              <cs:labourHours><xsl:value-of select="@hours"/></cs:labourHours>
              <cs:amount currency="{@currency}"><xsl:value-of select="@cost"/></cs:amount>
            </cs:line>
          </xsl:for-each>
        </cs:lines>
        <cs:notes>
          <xsl:for-each select="fn:Remarks/fn:Remark">
            <cs:note>
              <cs:author><xsl:value-of select="@by"/></cs:author>
              <cs:written><xsl:value-of select="@time"/></cs:written>
              <cs:text><xsl:value-of select="."/></cs:text>
            </cs:note>
          </xsl:for-each>
        </cs:notes>
      </cs:claim>
    </cs:createClaim>
  </xsl:template>
</xsl:stylesheet>
